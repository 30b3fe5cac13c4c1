import type { FastifyInstance, FastifyRequest } from 'fastify';
import { scanStrictJson, type PathSegment } from '@gatehouse/definitions';
import { ProblemError } from '@gatehouse/platform';

// JSON.parse keeps the last of two equal keys, so `{"command": "a", "command": "b"}` would be read as "b"
// while the author (or a reviewer reading the raw body) saw "a". Every JSON body the API takes is scanned
// once, linearly and without recursion, after Fastify's own parser (which refuses prototype poisoning) read it.
// Depth is not judged here: each input that nests (a definition document) bounds it with its own field error.
const UNBOUNDED_DEPTH = Number.MAX_SAFE_INTEGER;

function formatPath(path: readonly PathSegment[]): string {
  return path.length === 0 ? '(the body)' : path.map(String).join('.');
}

type ParserDone = (error: Error | null, body?: unknown) => void;

/** Registers the one `application/json` parser of a scope: strict keys and bounded depth, then Fastify's. */
export function addStrictJsonParser(scope: FastifyInstance, bodyLimit: number): void {
  const parseDefault = scope.getDefaultJsonParser('error', 'error');
  scope.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit },
    (request: FastifyRequest, body: string | Buffer, done: ParserDone) => {
      // parseAs 'string' hands us a string; the Buffer case only satisfies Fastify's parser type.
      const text = typeof body === 'string' ? body : body.toString('utf8');
      parseDefault(request, text, (error: Error | null, parsed?: unknown) => {
        if (error) return done(error);
        const problem = scanStrictJson(text, UNBOUNDED_DEPTH);
        if (problem?.reason !== 'duplicate_key') return done(null, parsed);
        done(
          new ProblemError({
            status: 400,
            code: 'duplicate_key',
            title: 'Duplicate key',
            detail: `The body names the same key twice at ${formatPath(problem.path)}; write each key once.`,
          }),
        );
      });
    },
  );
}
