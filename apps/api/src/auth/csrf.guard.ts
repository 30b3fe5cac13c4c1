import type { IncomingHttpHeaders } from 'node:http';
import { ProblemError } from '@gatehouse/platform';
import { digestsEqual, sha256 } from './opaque-secret';

// CSRF for cookie-authenticated writes (bearer requests carry their credential explicitly and need none).
// Two independent barriers, both required:
// 1. A JSON body: a cross-site HTML form can only send urlencoded, multipart or text/plain bodies, and a
//    cross-site fetch with application/json needs a CORS preflight we never grant. POST, PUT and PATCH (and so
//    every POST /graphql, mutations included) must be application/json; a DELETE may have no body at all,
//    but if it has one, or names a content type, that must be JSON too.
// 2. The session's CSRF token in `x-csrf-token`, compared as sha256 digests in constant time. The token was
//    handed to the dashboard's server at sign-in; a cross-site page can neither read it nor set the header.

export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);
const CSRF_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function isWriteMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

export type CsrfCheck = { ok: true } | { ok: false; reason: 'not_json' | 'missing_token' | 'token_mismatch' };

export interface CsrfRequest {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
}

export function checkCsrf(request: CsrfRequest, csrfHash: Uint8Array): CsrfCheck {
  if (!isWriteMethod(request.method)) return { ok: true };
  if (!hasJsonBodyIfAny(request)) return { ok: false, reason: 'not_json' };
  const token = request.headers[CSRF_HEADER];
  if (typeof token !== 'string' || token.length === 0) return { ok: false, reason: 'missing_token' };
  // A value of the wrong shape is still hashed and compared, so timing does not tell shapes apart.
  const matches = digestsEqual(sha256(token), csrfHash);
  return matches && CSRF_TOKEN_SHAPE.test(token) ? { ok: true } : { ok: false, reason: 'token_mismatch' };
}

function hasJsonBodyIfAny(request: CsrfRequest): boolean {
  const contentType = request.headers['content-type'];
  if (contentType !== undefined) return isJsonMediaType(contentType);
  if (BODY_METHODS.has(request.method.toUpperCase())) return false;
  const length = request.headers['content-length'];
  const hasBody =
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  return !hasBody;
}

/** `application/json`, with or without parameters (`; charset=utf-8`). Not `+json` suffixes: none are ours. */
export function isJsonMediaType(contentType: string): boolean {
  return contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** One answer for every CSRF refusal: which barrier failed is of no use to a client that did it right. */
export function csrfFailed(): ProblemError {
  return new ProblemError({
    status: 403,
    code: 'csrf_failed',
    title: 'CSRF check failed',
    detail:
      'Cookie-authenticated writes need a JSON body and the session CSRF token in the x-csrf-token header.',
  });
}
