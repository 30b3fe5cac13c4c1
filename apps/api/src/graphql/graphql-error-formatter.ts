import type { FastifyReply } from 'fastify';
import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import { isProblemCode, type ProblemCode } from '@gatehouse/contracts';
import { logMappedProblem, problemHeaders, toProblem, type Logger } from '@gatehouse/platform';

// GraphQL errors carry the same stable codes as REST problems, in `extensions.code` and `extensions.status`.
// Only ProblemError text reaches the client; anything else becomes a generic `internal` error that is logged,
// or `dependency_unavailable` (503, Retry-After on the response, a warn line) when Postgres was out of reach.
// Validation messages of graphql-js that would echo a submitted value are replaced by value-free ones.

type Formatted = { error: GraphQLFormattedError; status: number; headers?: Record<string, string> };

const VARIABLE_VALUE = /^Variable "(\$[_A-Za-z][_0-9A-Za-z]*)" got invalid value/;

/** graphql-js messages quote the offending value in a few shapes; keep the message, drop the value. */
export function valueFreeMessage(message: string): string {
  const variable = VARIABLE_VALUE.exec(message);
  if (variable) return `Variable "${variable[1]}" got an invalid value.`;
  const valueAt = message.search(/ value: /i);
  return valueAt >= 0 ? `${message.slice(0, valueAt)} value.` : message;
}

/**
 * The message of one error mercurius collected while parsing or validating: graphql-js's and mercurius' own keep
 * their (value-free) text; the JavaScript engine's never show (a query nested past what graphql-js's recursive
 * parser can read fails with a RangeError, "Maximum call stack size exceeded").
 */
function nestedMessage(inner: { message?: unknown }): string {
  if (inner instanceof RangeError) return 'The query nests too deeply to read.';
  if (inner instanceof TypeError || inner instanceof ReferenceError) return 'Invalid request.';
  return valueFreeMessage(typeof inner.message === 'string' ? inner.message : 'Invalid request.');
}

function position(error: GraphQLError): Pick<GraphQLFormattedError, 'locations' | 'path'> {
  return {
    ...(error.locations !== undefined ? { locations: error.locations } : {}),
    ...(error.path !== undefined ? { path: error.path } : {}),
  };
}

function statusOf(error: unknown): number | undefined {
  const status =
    typeof error === 'object' && error !== null ? (error as { statusCode?: unknown }).statusCode : undefined;
  return typeof status === 'number' ? status : undefined;
}

function formatOne(error: GraphQLError, logger: Logger): Formatted[] {
  const original = error.originalError;
  const nested = original !== undefined ? (original as { errors?: unknown }).errors : undefined;
  if (Array.isArray(nested)) {
    // mercurius' MER_ERR_GQL_VALIDATION (document or variables invalid) and 405 (a mutation over GET).
    const status = statusOf(original) === 405 ? 405 : 400;
    const code: ProblemCode = status === 405 ? 'method_not_allowed' : 'validation_failed';
    return nested.map(
      (inner: {
        message?: unknown;
        locations?: GraphQLError['locations'];
        extensions?: Record<string, unknown>;
      }) => {
        // Our own validation rules carry a more precise stable code (e.g. `too_many_fields`); only codes of the
        // one list are passed on (graphql-js or a plugin could set others).
        const own = status === 400 ? inner.extensions?.code : undefined;
        return {
          status,
          error: {
            message: nestedMessage(inner),
            ...(inner.locations !== undefined ? { locations: inner.locations } : {}),
            extensions: { code: isProblemCode(own) ? own : code, status },
          },
        };
      },
    );
  }

  const mapped = toProblem(original ?? error);
  logMappedProblem(logger, mapped, original ?? error, { path: error.path }, 'graphql request failed');
  const { problem } = mapped;
  const {
    type: _type,
    title,
    status,
    code,
    detail,
    instance: _instance,
    ...extra
  } = problem as typeof problem & Record<string, unknown>;
  return [
    {
      status,
      error: { message: detail ?? title, ...position(error), extensions: { code, status, ...extra } },
      headers: problemHeaders(mapped),
    },
  ];
}

/**
 * mercurius `errorFormatter`: maps every error through the same `toProblem` as REST. With data present the
 * answer is 200 (partial success, as GraphQL over HTTP expects); with none, the status of the first error.
 * Headers an error needs (Retry-After) go on the reply mercurius puts in the context.
 */
export function graphqlErrorFormatter(logger: Logger) {
  return (
    execution: ExecutionResult & { errors: readonly GraphQLError[] },
    context?: { reply?: FastifyReply },
  ) => {
    const formatted = execution.errors.flatMap((error) => formatOne(error, logger));
    for (const { headers } of formatted) if (headers !== undefined) context?.reply?.headers(headers);
    const hasData = execution.data !== undefined && execution.data !== null;
    return {
      statusCode: hasData ? 200 : (formatted[0]?.status ?? 500),
      response: { data: execution.data ?? null, errors: formatted.map((f) => f.error) },
    };
  };
}
