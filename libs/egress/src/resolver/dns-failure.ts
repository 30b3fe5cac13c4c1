// Which errors of a resolver mean "this name did not resolve" (unresolvable) rather than a bug (thrown). Shared
// by the getaddrinfo resolver and the c-ares one, whose errors carry the same codes.

const DNS_FAILURE_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'ENODATA',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EAI_NODATA',
  'ESERVFAIL',
  'EREFUSED',
  'ETIMEOUT',
  'EBADNAME',
  'EBADRESP',
  'ECONNREFUSED',
  'ENONAME',
  'EFORMERR',
  'ENOTIMP',
  'EEOF',
  // A lookup ended by our own deadline (Resolver#cancel).
  'ECANCELLED',
]);

export function isDnsFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  return syscall === 'getaddrinfo' || (typeof code === 'string' && DNS_FAILURE_CODES.has(code));
}

/** No record of the asked type, or no such name: an empty answer for that type, not a failure. */
export function isEmptyAnswer(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === 'ENODATA' || code === 'ENOTFOUND';
}
