import type { ProblemCode } from '@gatehouse/contracts';
import { dependencyFailureOf } from './dependency-unavailable.js';
import { ProblemError, problemJson, type ProblemDocument } from './problem-error.js';

export type MappedProblem = {
  problem: ProblemDocument;
  /** True when the error is a fault of ours (5xx): log it, and never send its message. */
  unexpected: boolean;
  /**
   * Set for 503 `dependency_unavailable` (a dependency momentarily out of reach, not a fault of ours): answer
   * `Retry-After: retryAfterSeconds` and log one warn line with `cause`, without the error or its stack.
   */
  unavailable?: { readonly retryAfterSeconds: number; readonly cause: string };
};

/** What a client waits before retrying a request refused because a dependency was momentarily away. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 1;

type Known = { status: number; code: ProblemCode; title: string; detail?: string };

/** Fastify's own request errors (body parsing, routing) by their stable `code`. */
const FASTIFY_ERRORS: Readonly<Record<string, Known>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'malformed_json',
    title: 'Malformed JSON',
    detail: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'malformed_json',
    title: 'Malformed JSON',
    detail: 'The request declares a JSON body but sent none.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    title: 'Payload too large',
    detail: 'The request body exceeds the size limit.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    title: 'Unsupported media type',
    detail: 'The request body has a content type this endpoint does not accept.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'bad_request',
    title: 'Bad request',
    detail: 'The request body does not match its Content-Length.',
  },
  FST_ERR_CTP_INVALID_TYPE: {
    status: 400,
    code: 'bad_request',
    title: 'Bad request',
    detail: 'The Content-Type header is not valid.',
  },
};

/** Generic problems by HTTP status for any other client error. */
const BY_STATUS: Readonly<Record<number, Known>> = {
  400: { status: 400, code: 'bad_request', title: 'Bad request' },
  401: { status: 401, code: 'unauthenticated', title: 'Unauthenticated' },
  403: { status: 403, code: 'forbidden', title: 'Forbidden' },
  404: { status: 404, code: 'not_found', title: 'Not found', detail: 'No such resource.' },
  405: { status: 405, code: 'method_not_allowed', title: 'Method not allowed' },
  406: { status: 406, code: 'not_acceptable', title: 'Not acceptable' },
  408: { status: 408, code: 'request_timeout', title: 'Request timeout' },
  409: { status: 409, code: 'conflict', title: 'Conflict' },
  410: { status: 410, code: 'gone', title: 'Gone' },
  411: { status: 411, code: 'length_required', title: 'Length required' },
  412: { status: 412, code: 'precondition_failed', title: 'Precondition failed' },
  413: FASTIFY_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE as Known,
  414: { status: 414, code: 'uri_too_long', title: 'URI too long' },
  415: FASTIFY_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE as Known,
  422: { status: 422, code: 'unprocessable_content', title: 'Unprocessable content' },
  429: { status: 429, code: 'rate_limited', title: 'Too many requests' },
  431: { status: 431, code: 'request_header_fields_too_large', title: 'Request header fields too large' },
};

const INTERNAL: Known = {
  status: 500,
  code: 'internal',
  title: 'Internal server error',
  detail: 'The server failed to handle the request. It has been logged.',
};

const DEPENDENCY_UNAVAILABLE: Known = {
  status: 503,
  code: 'dependency_unavailable',
  title: 'Unavailable',
  detail: 'A service the API depends on is momentarily unavailable. Retry after the time in Retry-After.',
};

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** The HTTP status an error carries: Nest's `getStatus()`, Fastify's `statusCode`, or `status`. */
function statusOf(error: unknown): number | undefined {
  const getStatus = field(error, 'getStatus');
  if (typeof getStatus === 'function') {
    const status: unknown = getStatus.call(error);
    if (typeof status === 'number') return status;
  }
  for (const key of ['statusCode', 'status']) {
    const status = field(error, key);
    if (typeof status === 'number' && Number.isInteger(status)) return status;
  }
  return undefined;
}

/** Fastify's error code, also when a framework wrapped the Fastify error as its `cause`. */
function fastifyCodeOf(error: unknown): string | undefined {
  for (let current: unknown = error, hops = 0; current !== undefined && hops < 3; hops++) {
    const code = field(current, 'code');
    if (typeof code === 'string' && code.startsWith('FST_')) return code;
    current = field(current, 'cause');
  }
  return undefined;
}

/**
 * Postgres refuses NUL in text (22021) and in jsonb (22P05): the client sent it, so it is a 400. The edge
 * refuses NUL before any query; this is the backstop for a path that slips past it.
 */
const INVALID_CHARACTERS: Known = {
  status: 400,
  code: 'invalid_characters',
  title: 'Invalid characters',
  detail: 'The request contains a NUL character, which no field accepts.',
};
const NUL_SQLSTATES = new Set(['22021', '22P05']);

/**
 * True when a Postgres error with one of those SQLSTATEs is the error or sits under it: pg puts it in `code`;
 * Prisma's driver adapter wraps it as `meta.driverAdapterError.cause.{code,originalCode}`.
 */
function isNulRefusal(error: unknown): boolean {
  const pending: { value: unknown; hops: number }[] = [{ value: error, hops: 0 }];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === undefined || typeof next.value !== 'object' || next.value === null) continue;
    for (const key of ['code', 'originalCode']) {
      const code = field(next.value, key);
      if (typeof code === 'string' && NUL_SQLSTATES.has(code)) return true;
    }
    if (next.hops >= 4) continue;
    pending.push({ value: field(next.value, 'cause'), hops: next.hops + 1 });
    pending.push({ value: field(field(next.value, 'meta'), 'driverAdapterError'), hops: next.hops + 1 });
  }
  return false;
}

function fromKnown(known: Known, unexpected: boolean): MappedProblem {
  return { problem: problemJson(known), unexpected };
}

/**
 * Maps anything thrown while handling a request to the problem document the client gets. Only ProblemError
 * text reaches the client; any other error gets a fixed title and detail chosen by its status, and 5xx are
 * flagged for logging, except a dependency momentarily unavailable (503 `dependency_unavailable`, `unavailable`
 * set: Retry-After and a warn line).
 */
export function toProblem(error: unknown): MappedProblem {
  if (error instanceof ProblemError) {
    // A use case's own 503 (Redis away, say) is answered as it wrote it, with the same Retry-After.
    if (error.code === 'dependency_unavailable')
      return {
        problem: error.toProblem(),
        unexpected: false,
        unavailable: { retryAfterSeconds: DEPENDENCY_RETRY_AFTER_SECONDS, cause: error.code },
      };
    return { problem: error.toProblem(), unexpected: error.status >= 500 };
  }
  const fastifyCode = fastifyCodeOf(error);
  const known = fastifyCode === undefined ? undefined : FASTIFY_ERRORS[fastifyCode];
  if (known) return fromKnown(known, false);
  if (isNulRefusal(error)) return fromKnown(INVALID_CHARACTERS, false);
  const status = statusOf(error);
  if (status !== undefined && status >= 400 && status < 500) {
    // A JSON syntax error from a body parser that is not Fastify's (e.g. prototype poisoning refused).
    if (status === 400 && (error instanceof SyntaxError || field(error, 'cause') instanceof SyntaxError)) {
      return fromKnown(FASTIFY_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY as Known, false);
    }
    return fromKnown(BY_STATUS[status] ?? { status, code: 'client_error', title: 'Client error' }, false);
  }
  const failure = dependencyFailureOf(error);
  if (failure !== null)
    return {
      ...fromKnown(DEPENDENCY_UNAVAILABLE, false),
      unavailable: { retryAfterSeconds: DEPENDENCY_RETRY_AFTER_SECONDS, cause: failure.cause },
    };
  return fromKnown(INTERNAL, true);
}
