import { keySegment } from './decode-problem';
import { maskArgs, maskArgument, maskText, maskUrl, REDACTED } from './literal-masker';
import { isCredentialShapedLiteral } from './secret-shape';

const HIDDEN_KEY = /^\[REDACTED #(\d+)\]$/;

/**
 * A key as the editable document shows it: itself when a problem path would show it (a short plain name that
 * does not look like a credential), else `[REDACTED #<position>]` (a pasted token used as a server name, a
 * 600-character tool name). Sent back, the placeholder restore maps it to the stored key at that position.
 * Env and header keys never go through this: they are always shown by name (keyedValuesOf).
 */
export function editableKeyOf(key: string, index: number): string {
  return keySegment(key, index) === key ? key : `[REDACTED #${index}]`;
}

/** The position a hidden key stands for, or null for a key shown as itself. */
export function hiddenKeyPosition(key: string): number | null {
  const match = HIDDEN_KEY.exec(key);
  return match === null ? null : Number(match[1]);
}

/**
 * A stored source document as an editor may show it, so a person can change one entry without retyping the
 * others. Same shape and keys as the stored document; what it shows of each string is what the redacted
 * projection shows of it, with env and header VALUES hidden entirely (a value there is too often a credential of
 * no recognisable shape): a value that is exactly a `${NAME}` reference stays (it names where the value comes
 * from and shows none of it), anything else becomes `[REDACTED]`. Sent back unchanged, every masked string is
 * one the API's placeholder restore maps back to the stored value (apps/api definition-placeholder-restore.ts);
 * invisible characters are NOT escaped here, since an editor round-trips the raw text. Env and header keys are
 * shown by name, every one: a key decides what the server does and a reviewer must read it, and sent back it is
 * simply itself. Other keys a problem path would not show are hidden (editableKeyOf).
 */
export function editableDocumentOf(document: unknown): unknown {
  if (!isRecord(document)) return maskAny(document);
  const out: Record<string, unknown> = {};
  Object.entries(document).forEach(([key, value], index) => {
    define(
      out,
      editableKeyOf(key, index),
      key === 'mcpServers' && isRecord(value) ? serversOf(value) : maskAny(value),
    );
  });
  return out;
}

const REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

function serversOf(servers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  Object.entries(servers).forEach(([name, entry], index) =>
    define(out, editableKeyOf(name, index), entryOf(entry)),
  );
  return out;
}

function entryOf(entry: unknown): unknown {
  if (!isRecord(entry)) return maskAny(entry);
  const out: Record<string, unknown> = {};
  Object.entries(entry).forEach(([field, value], index) =>
    define(out, editableKeyOf(field, index), fieldOf(field, value)),
  );
  return out;
}

function fieldOf(field: string, value: unknown): unknown {
  switch (field) {
    case 'env':
    case 'headers':
      return isRecord(value) ? keyedValuesOf(value) : hidden(value);
    case 'url':
      return typeof value === 'string' ? maskUrl(value) : maskAny(value);
    case 'command':
      return typeof value === 'string' ? maskArgument(value) : maskAny(value);
    case 'args':
    case 'headersHelper':
      return isStringList(value) ? maskArgs(value) : maskAny(value);
    default:
      return maskAny(value);
  }
}

/**
 * Env and header values: a bare `${NAME}` reference shows; anything else, of any type, is hidden. Keys show as
 * they are, whatever they look like.
 */
function keyedValuesOf(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const reference = typeof value === 'string' ? REFERENCE.exec(value) : null;
    const shown = reference !== null && !isCredentialShapedLiteral(reference[1] as string);
    define(out, key, shown ? value : REDACTED);
  }
  return out;
}

function hidden(value: unknown): unknown {
  return value === null || value === undefined ? value : REDACTED;
}

/** Anything else: strings masked as free text, numbers, booleans and null as they are, containers walked. */
function maskAny(value: unknown): unknown {
  if (typeof value === 'string') return maskText(value);
  if (Array.isArray(value)) return value.map(maskAny);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    Object.entries(value).forEach(([key, item], index) =>
      define(out, editableKeyOf(key, index), maskAny(item)),
    );
    return out;
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** `__proto__` is a legal JSON key: defined, never assigned, so it stays a key. */
function define(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}
