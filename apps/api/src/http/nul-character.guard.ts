import { ProblemError } from '@gatehouse/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';

// Postgres refuses NUL in text (SQLSTATE 22021) and in jsonb (22P05), so a NUL anywhere in a request would
// surface as a 500 from whichever query first stores or compares it. Refusing it once, at the edge, covers
// every route (REST, GraphQL variables and query strings, sign-in) instead of each schema.

const NUL = '\u0000';

/** True when any string (or object key) inside `value` contains NUL. Iterative: a deeply nested body cannot overflow the stack. */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (current.includes(NUL)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes(NUL)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

export function invalidCharacters(): ProblemError {
  return new ProblemError({
    status: 400,
    code: 'invalid_characters',
    title: 'Invalid characters',
    detail: 'The request contains a NUL character, which no field accepts.',
  });
}

/**
 * Adds a root `preValidation` hook refusing NUL in the body, query string and path parameters. Call before any
 * route is registered: Fastify hooks only reach routes (and child scopes) added after them. The error goes to
 * each route's own error handler, so REST answers problem+json and /graphql a GraphQL error, both 400.
 */
export function installNulCharacterGuard(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', async (request: FastifyRequest) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
      throw invalidCharacters();
    }
  });
}
