import type { Logger } from 'pino';
import type { MappedProblem } from '../errors/problem-mapping.js';

// What every surface does with a mapped problem besides sending its body, in one place: the headers it needs
// and its log line. A dependency momentarily away is no fault of ours: one warn line naming its cause (never the
// error: its message may name a host, and a stack says nothing the cause does not).

/** The response headers of a mapped problem: Retry-After when a dependency is momentarily unavailable. */
export function problemHeaders(mapped: MappedProblem): Record<string, string> {
  return mapped.unavailable === undefined
    ? {}
    : { 'retry-after': String(mapped.unavailable.retryAfterSeconds) };
}

/**
 * Logs a mapped problem: a fault of ours as an error with `err` (and its stack) and `message`; a dependency
 * away as a warn line with its cause; a client's error not at all. `fields` are ids and routes, never payloads.
 */
export function logMappedProblem(
  logger: Logger,
  mapped: MappedProblem,
  error: unknown,
  fields: Record<string, unknown>,
  message: string,
): void {
  if (mapped.unexpected) logger.error({ ...fields, err: error }, message);
  else if (mapped.unavailable !== undefined)
    logger.warn({ ...fields, cause: mapped.unavailable.cause }, 'dependency unavailable');
}
