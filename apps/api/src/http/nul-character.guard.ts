import { ProblemError } from '@gatehouse/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';

// Postgres refuses NUL in text (SQLSTATE 22021) and in jsonb (22P05), so a NUL anywhere in a request would
// surface as a 500 from whichever query first stores or compares it. Refusing it once, at the edge, covers
// every route (REST, GraphQL variables and query strings, sign-in) instead of each schema.
//
// Ill-formed UTF-16 (a lone surrogate: a JSON body's `"\ud800"` escape parses into one) is refused the same way:
// jsonb refuses it (a 500 again), and a text column would silently store U+FFFD instead of what was sent, so the
// value read back (or hashed) would differ from the one written.

const NUL = '\u0000';

/** What no field accepts. */
export type RefusedCharacter = 'nul' | 'lone_surrogate';

/**
 * Whether `text` is well-formed UTF-16: every high surrogate (D800-DBFF) directly followed by a low one
 * (DC00-DFFF), and no low surrogate alone. What ES2024's `String.prototype.isWellFormed` answers; the project's
 * TypeScript lib (es2023) does not declare that yet. Linear, and exits at the first lone surrogate.
 */
export function isWellFormedText(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code > 0xdbff) return false;
    // NaN past the end: a high surrogate closing the text is alone too.
    const next = text.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i += 1;
  }
  return true;
}

function refusedIn(text: string): RefusedCharacter | null {
  if (text.includes(NUL)) return 'nul';
  return isWellFormedText(text) ? null : 'lone_surrogate';
}

/**
 * The first judgement `judge` makes of any string (or object key) inside `value`. Iterative: a deeply nested body
 * cannot overflow the stack.
 */
function firstFound<T>(value: unknown, judge: (text: string) => T | null): T | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      const found = judge(current);
      if (found !== null) return found;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const found = judge(key);
        if (found !== null) return found;
        pending.push(item);
      }
    }
  }
  return null;
}

/** The first refused character in any string (or object key) inside `value`, or null. */
export function findRefusedCharacter(value: unknown): RefusedCharacter | null {
  return firstFound(value, refusedIn);
}

const DETAILS: Readonly<Record<RefusedCharacter, string>> = {
  nul: 'The request contains a NUL character, which no field accepts.',
  lone_surrogate:
    'The request contains ill-formed text (a lone UTF-16 surrogate, such as an unpaired "\\ud800" escape), ' +
    'which no field accepts.',
};

/** One code for both (`invalid_characters`, as before): clients handle one refusal; the detail says which. */
export function invalidCharacters(refused: RefusedCharacter = 'nul'): ProblemError {
  return new ProblemError({
    status: 400,
    code: 'invalid_characters',
    title: 'Invalid characters',
    detail: DETAILS[refused],
  });
}

/**
 * Adds a root `preValidation` hook refusing NUL and lone surrogates in the body, query string and path
 * parameters. Call before any route is registered: Fastify hooks only reach routes (and child scopes) added after
 * them. The error goes to each route's own error handler, so REST answers problem+json and /graphql a GraphQL
 * error, both 400.
 */
export function installNulCharacterGuard(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', async (request: FastifyRequest) => {
    const refused =
      findRefusedCharacter(request.body) ??
      findRefusedCharacter(request.query) ??
      findRefusedCharacter(request.params);
    if (refused !== null) throw invalidCharacters(refused);
  });
}
