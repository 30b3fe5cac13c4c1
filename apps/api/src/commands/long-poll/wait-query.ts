import { longPollOf, type CommandDefinition } from '@gatehouse/commands';
import { ValidationProblemError } from '../../shared/command-problems';

/** The query parameter a long-poll read takes: whole seconds, 0 up to the read's declared bound. */
export const WAIT_PARAMETER = 'wait';

/**
 * `?wait=` of a read that declares long-poll, in seconds (null: not asked). Anything but whole seconds within
 * the declared bound is a 400 naming `wait`. Reads without long-poll never get here: for them `wait` is an
 * unknown input field like any other.
 */
export function waitSecondsOf(command: CommandDefinition, query: unknown): number | null {
  const bound = longPollOf(command);
  if (bound === null || typeof query !== 'object' || query === null) return null;
  const raw = (query as Record<string, unknown>)[WAIT_PARAMETER];
  if (raw === undefined) return null;
  const seconds = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(seconds >= 0 && seconds <= bound)) {
    throw new ValidationProblemError([
      { path: WAIT_PARAMETER, message: `Wait whole seconds, from 0 to ${bound}.` },
    ]);
  }
  return seconds;
}
