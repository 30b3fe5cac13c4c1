import { conflict } from './command-problems';
import type { ProblemError } from '@gatehouse/platform';

// The one place a unique-constraint violation becomes a client-facing 409: Prisma reports it as P2002, a raw
// query as SQLSTATE 23505. Use cases just write; the runner maps what the database refused.

function codeOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? (value as { code?: unknown }).code : undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  for (
    let current: unknown = error, hops = 0;
    current !== undefined && current !== null && hops < 3;
    hops++
  ) {
    const code = codeOf(current);
    if (code === 'P2002' || code === '23505') return true;
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return false;
}

/** The problem for a unique violation; the constraint name stays in the logs, never in the answer. */
export function uniqueViolationProblem(): ProblemError {
  return conflict('Something with the same name or identity already exists.');
}
