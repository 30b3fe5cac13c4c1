// What the dashboard shows when a call to the API does not succeed: the API's RFC 9457 problem (its stable
// `code` above all), or one of the dashboard's own codes when there was no answer to read. Pure, so the
// reading of untrusted response bodies is unit-tested. The API's codes are the one list of @gatehouse/contracts;
// a code outside it is not an answer the dashboard understands.

import { isProblemCode, type ProblemCode } from '@gatehouse/contracts';
import { z } from 'zod';

export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

/** The dashboard's own codes, for answers the API did not give (never one of the API's codes). */
export type DashboardProblemCode =
  'api_unreachable' | 'api_bad_response' | 'dashboard_misconfigured' | 'dashboard_error';

/** What a problem shown by the dashboard may be coded: one of the API's codes, or one of the dashboard's own. */
export type ShownProblemCode = ProblemCode | DashboardProblemCode;

export interface ApiProblem {
  /** The API's stable code (`conflict`, `forbidden_scope`, ...) or one of the dashboard's own. */
  readonly code: ShownProblemCode;
  readonly title: string;
  /** HTTP status of the API's answer; null when there was none. */
  readonly status: number | null;
  readonly detail: string | null;
  /** `validation_failed`: the offending fields. */
  readonly errors: readonly FieldProblem[];
  /** `tenant_required` / `tenant_not_member`: the tenants the account may pick from. */
  readonly tenants: readonly string[];
}

export const DASHBOARD_PROBLEM_CODES = Object.freeze({
  /** Connection refused, reset, DNS failure or timeout: the API did not answer. */
  unreachable: 'api_unreachable',
  /** The API answered with something that is not a problem document (a proxy's HTML page, say). */
  badResponse: 'api_bad_response',
  /** The dashboard's own configuration is invalid (API_URL, ...). */
  misconfigured: 'dashboard_misconfigured',
  /** The dashboard refused before calling the API: the signed-in role lacks the scope. */
  notAllowed: 'forbidden_scope',
  /** A form field failed the dashboard's own check before any call. */
  invalidInput: 'validation_failed',
} as const satisfies Record<string, ShownProblemCode>);

const MAX_TEXT = 500;
const MAX_ITEMS = 50;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, MAX_TEXT) : null;
}

// The members of a problem document the dashboard reads, each still unknown: read one by one below, never cast.
const problemMembers = z
  .object({
    code: z.unknown(),
    title: z.unknown(),
    detail: z.unknown(),
    errors: z.unknown(),
    tenants: z.unknown(),
  })
  .partial();
const fieldProblemMembers = z.object({ path: z.unknown(), message: z.unknown() }).partial();

function fieldProblems(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, MAX_ITEMS).flatMap((entry: unknown) => {
    const record = fieldProblemMembers.safeParse(entry);
    if (!record.success) return [];
    const message = text(record.data.message);
    return message === null ? [] : [{ path: text(record.data.path) ?? '', message }];
  });
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, MAX_ITEMS)
    .filter((entry): entry is string => typeof entry === 'string' && entry.length <= 100);
}

/** Reads an error response body; anything that is not a problem with one of the API's codes becomes `api_bad_response`. */
export function problemFromResponse(status: number, body: unknown): ApiProblem {
  const members = problemMembers.safeParse(body);
  const record: z.output<typeof problemMembers> = members.success ? members.data : {};
  const code = record.code;
  if (!isProblemCode(code)) {
    return {
      code: DASHBOARD_PROBLEM_CODES.badResponse,
      title: 'Unexpected answer from the API',
      status,
      detail: `The API answered ${status} without a problem document.`,
      errors: [],
      tenants: [],
    };
  }
  return {
    code,
    title: text(record.title) ?? code,
    status,
    detail: text(record.detail),
    errors: fieldProblems(record.errors),
    tenants: strings(record.tenants),
  };
}

export function unreachableProblem(): ApiProblem {
  return {
    code: DASHBOARD_PROBLEM_CODES.unreachable,
    title: 'The Gatehouse API is unreachable',
    status: null,
    detail:
      'The dashboard could not reach the API. Check that the API is running and that the dashboard’s API_URL points at it, then try again.',
    errors: [],
    tenants: [],
  };
}

export function misconfiguredProblem(message: string): ApiProblem {
  return {
    code: DASHBOARD_PROBLEM_CODES.misconfigured,
    title: 'The dashboard is misconfigured',
    status: null,
    detail: `Fix the dashboard’s environment and restart it: ${message}`.slice(0, MAX_TEXT),
    errors: [],
    tenants: [],
  };
}

/** A refusal decided by the dashboard itself (same code as the API would give, so one message fits both). */
export function notAllowedProblem(detail: string): ApiProblem {
  return {
    code: DASHBOARD_PROBLEM_CODES.notAllowed,
    title: 'Not allowed',
    status: 403,
    detail,
    errors: [],
    tenants: [],
  };
}

export function invalidInputProblem(errors: readonly FieldProblem[]): ApiProblem {
  return {
    code: DASHBOARD_PROBLEM_CODES.invalidInput,
    title: 'Check the form',
    status: null,
    detail: 'Some fields need attention.',
    errors,
    tenants: [],
  };
}
