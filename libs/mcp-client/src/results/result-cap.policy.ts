// The admission cap on what a tool result brings back (characters, for the model's context). Separate from, and
// larger than what it guards against in, the transport receive cap (bytes, before the SDK parses anything).
//
// A server may ASK for another cap for one tool through one vendor key in the tool's `_meta`, only within a fixed
// range. Anything else there (a string, a fraction, a number out of range) is ignored with a diagnostic: the
// default applies, never a wider cap.

export const RESULT_CAP_META_KEY = 'io.gatehouse/maxResultChars';
export const DEFAULT_MAX_RESULT_CHARS = 100_000;
export const MIN_REQUESTED_RESULT_CHARS = 1_000;
export const MAX_REQUESTED_RESULT_CHARS = 1_000_000;

export type ResultCapDiagnostic = 'result_cap_malformed' | 'result_cap_out_of_range';

export interface ResultCap {
  readonly maxChars: number;
  /** Whether the server's request was taken (false: the default). */
  readonly requested: boolean;
  /** Why the server's request was ignored, when it was. */
  readonly diagnostic?: ResultCapDiagnostic;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the cap a tool's `_meta` asks for. */
const DEFAULT_CAP: ResultCap = Object.freeze({ maxChars: DEFAULT_MAX_RESULT_CHARS, requested: false });

export function readResultCap(meta: unknown): ResultCap {
  const fallback = DEFAULT_CAP;
  if (!isRecord(meta) || !Object.prototype.hasOwnProperty.call(meta, RESULT_CAP_META_KEY)) return fallback;
  const asked = meta[RESULT_CAP_META_KEY];
  if (typeof asked !== 'number' || !Number.isInteger(asked))
    return { ...fallback, diagnostic: 'result_cap_malformed' };
  if (asked < MIN_REQUESTED_RESULT_CHARS || asked > MAX_REQUESTED_RESULT_CHARS)
    return { ...fallback, diagnostic: 'result_cap_out_of_range' };
  return { maxChars: asked, requested: true };
}

const str = (v: unknown) => (typeof v === 'string' ? v.length : 0);

function contentChars(item: unknown): number {
  if (!isRecord(item)) return JSON.stringify(item ?? null).length;
  switch (item.type) {
    case 'text':
      return str(item.text);
    case 'image':
    case 'audio':
      return str(item.data);
    case 'resource': {
      const resource = isRecord(item.resource) ? item.resource : {};
      return str(resource.uri) + str(resource.text) + str(resource.blob);
    }
    case 'resource_link':
      return str(item.uri) + str(item.name) + str(item.title) + str(item.description);
    default:
      return JSON.stringify(item).length;
  }
}

/**
 * Characters a tool result brings into context: text, base64 data, embedded resource text and blobs, links, and
 * the JSON of structured content (or of a legacy `toolResult`).
 */
export function measureResultChars(result: unknown): number {
  if (!isRecord(result)) return 0;
  let chars = 0;
  if (Array.isArray(result.content)) for (const item of result.content) chars += contentChars(item);
  if (result.structuredContent !== undefined) chars += JSON.stringify(result.structuredContent).length;
  if ('toolResult' in result) chars += JSON.stringify(result.toolResult ?? null).length;
  return chars;
}

export type ResultAdmission<R> =
  | { readonly ok: true; readonly result: R; readonly chars: number }
  | {
      readonly ok: false;
      readonly reason: 'result_too_large';
      readonly chars: number;
      readonly maxChars: number;
    };

/** Admits a tool result under its cap, or refuses it whole (a result is never cut into something it did not say). */
export function admitToolResult<R>(result: R, cap: ResultCap): ResultAdmission<R> {
  const chars = measureResultChars(result);
  return chars <= cap.maxChars
    ? { ok: true, result, chars }
    : { ok: false, reason: 'result_too_large', chars, maxChars: cap.maxChars };
}

/** The tool-error result a host hands on in place of a refused one: sizes only, nothing of the content. */
export function withheldResult(refusal: { readonly chars: number; readonly maxChars: number }): {
  content: { type: 'text'; text: string }[];
  isError: true;
} {
  return {
    content: [
      {
        type: 'text',
        text: `The tool result was withheld: ${refusal.chars} characters is over this tool's limit of ${refusal.maxChars}.`,
      },
    ],
    isError: true,
  };
}
