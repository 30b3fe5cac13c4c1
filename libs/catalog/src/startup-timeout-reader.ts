import { refuse, type OptionRead } from './option-refusal';

/**
 * The range every MCP millisecond bound keeps: below 1 000 is a unit slip (seconds written as milliseconds), and
 * timers silently rewrite a delay above 2 147 483 647 (2^31 - 1) to 1 ms.
 */
export const STARTUP_TIMEOUT_MIN_MS = 1_000;
export const STARTUP_TIMEOUT_MAX_MS = 2_147_483_647;

/**
 * Reads `startupTimeoutMs`: this server's startup bound (connect + initialize, and the initial listing), in whole
 * milliseconds. A declaration is typed data, so anything else (a string, a fraction, zero, a negative, NaN,
 * `null`, a number outside the range) refuses the server rather than being clamped or read as the default.
 */
export function readStartupTimeoutMs(declared: unknown): OptionRead<number | undefined> {
  if (declared === undefined) return { ok: true, value: undefined };
  if (typeof declared !== 'number') return refuse('wrong_type');
  if (!Number.isInteger(declared)) return refuse('not_whole_number');
  if (declared < STARTUP_TIMEOUT_MIN_MS || declared > STARTUP_TIMEOUT_MAX_MS) return refuse('out_of_range');
  return { ok: true, value: declared };
}
