import { refuse, type OptionRead } from './option-refusal';
import { isProtocolOwnedHeader } from './protocol-headers';

/** RFC 9110 `token`: the characters a header field name may use. */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_HEADER_NAME = 128;

/** Whether a string is usable as an HTTP header field name. */
export function isHeaderName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_HEADER_NAME && HEADER_TOKEN.test(name);
}

/**
 * Reads `principalHeader`: the header name under which the gateway sends the calling principal on every call to
 * this server, so the server can enforce per-user rules. None of the protocol-owned headers (protocol-headers.ts:
 * the one list static headers and header helpers are judged by too), the credential slot included: letting it be
 * one would let a definition overwrite what the transport sets, or smuggle the principal into the credential slot.
 * A static header of the same name (in any case) refuses it, because two writers of one header leave the server
 * guessing which one is the principal.
 *
 * @param staticHeaderNames the server's static header names as declared (any case).
 */
export function readPrincipalHeader(
  declared: unknown,
  staticHeaderNames: readonly string[],
): OptionRead<string | undefined> {
  if (declared === undefined) return { ok: true, value: undefined };
  if (typeof declared !== 'string') return refuse('wrong_type');
  if (!isHeaderName(declared)) return refuse('invalid_header_name');
  if (isProtocolOwnedHeader(declared)) return refuse('protocol_header');
  const lower = declared.toLowerCase();
  if (staticHeaderNames.some((name) => name.toLowerCase() === lower)) return refuse('header_collision');
  return { ok: true, value: declared };
}
