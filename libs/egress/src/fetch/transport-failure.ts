// undici reports a failed fetch as `TypeError('fetch failed')` with the socket error as `cause`; the cause's
// code tells a timeout from everything else. Only the class leaves this file, never the error text.
export type TransportFailure = 'timeout' | 'connection_failed';

const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

export function classifyTransportFailure(error: unknown): TransportFailure {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return 'timeout';
    current = (current as { cause?: unknown }).cause;
  }
  return 'connection_failed';
}
