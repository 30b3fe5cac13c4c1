import type { z } from 'zod';
import { DASHBOARD_PROBLEM_CODES, type ApiProblem } from './api-problem';

// Reading a success answer of the API: parsed with the schema the API declares for it (@gatehouse/contracts,
// decision 0063), never cast. An answer of another shape (a proxy's page, an API of another version, a bug) is
// the dashboard's own `api_bad_response`, which pages show in words; nothing of the body is kept or echoed.

export type AnswerRead<T> =
  | { readonly ok: true; readonly status: number; readonly data: T }
  | { readonly ok: false; readonly problem: ApiProblem };

export function readAnswer<S extends z.ZodType>(
  schema: S,
  status: number,
  body: unknown,
): AnswerRead<z.output<S>> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, status, data: parsed.data };
  return { ok: false, problem: malformedAnswerProblem(status) };
}

/** A success status whose body is not what the API declares for the call. */
export function malformedAnswerProblem(status: number): ApiProblem {
  return {
    code: DASHBOARD_PROBLEM_CODES.badResponse,
    title: 'Unexpected answer from the API',
    status,
    detail: `The API answered ${status} with a body the dashboard does not understand.`,
    errors: [],
    tenants: [],
  };
}
