import { isHeaderName, maySetHeader } from '@gatehouse/catalog';

// A header helper's stdout, read strictly: one JSON object whose values are all strings, at most 32 headers,
// names that are HTTP tokens and not owned by the transport, the protocol or the gateway (the one list in
// @gatehouse/catalog, the decoder's too), values without CR, LF or NUL. Reasons only: the output is a credential.

export const MAX_HELPER_HEADERS = 32;
export const MAX_HELPER_VALUE_CHARS = 8192;

export type HeaderHelperOutputRefusal =
  | 'not_json'
  | 'not_an_object'
  | 'too_many_headers'
  | 'invalid_header_name'
  | 'duplicate_header'
  | 'owned_header'
  | 'invalid_header_value';

export type HeaderHelperOutput =
  | { readonly ok: true; readonly headers: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly reason: HeaderHelperOutputRefusal };

const VALUE = /^[^\r\n\0]*$/;

export function parseHeaderHelperOutput(text: string): HeaderHelperOutput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not_json' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, reason: 'not_an_object' };
  }
  const entries = Object.entries(parsed);
  if (entries.length > MAX_HELPER_HEADERS) return { ok: false, reason: 'too_many_headers' };
  const seen = new Set<string>();
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!isHeaderName(name)) return { ok: false, reason: 'invalid_header_name' };
    const lower = name.toLowerCase();
    if (seen.has(lower)) return { ok: false, reason: 'duplicate_header' };
    seen.add(lower);
    if (!maySetHeader(name)) return { ok: false, reason: 'owned_header' };
    if (typeof value !== 'string' || value.length > MAX_HELPER_VALUE_CHARS || !VALUE.test(value)) {
      return { ok: false, reason: 'invalid_header_value' };
    }
    headers[name] = value;
  }
  return { ok: true, headers };
}
