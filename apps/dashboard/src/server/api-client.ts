import { headers } from 'next/headers';
import type { z } from 'zod';
import { readAnswer } from './api-answer';
import {
  misconfiguredProblem,
  problemFromResponse,
  unreachableProblem,
  type ApiProblem,
} from './api-problem';
import { clientIpFromForwardedFor } from './client-ip';
import { dashboardConfig } from './dashboard-env';
import { readSessionCredentials } from './session-cookies';

// The dashboard's only way to the API: server-side, with the signed-in person's session forwarded as the API
// expects it (cookie + CSRF header on writes + JSON body), and the browser's address in X-Forwarded-For (the
// API trusts it from this server through TRUSTED_PROXIES). Never throws for an API that is down or answers
// with a problem: pages and actions render the result. Every success answer is parsed with the schema the API
// declares for it (`answer`, from @gatehouse/contracts): a body of another shape is a problem, never a cast.

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ApiCall<S extends z.ZodType = z.ZodType> {
  readonly method: HttpMethod;
  /** Path under the API's base URL, e.g. `/v1/workspaces`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** JSON body of a write. A write without one still sends `{}`: the API's CSRF check wants JSON. */
  readonly body?: unknown;
  /** `session` (default) forwards the dashboard session; `none` for sign-in. */
  readonly auth?: 'session' | 'none';
  /** The API's schema of the success answer (`z.undefined()` for 204 No Content). */
  readonly answer: S;
}

export type ApiResult<T> =
  | { readonly ok: true; readonly status: number; readonly data: T; readonly headers: Headers }
  | { readonly ok: false; readonly problem: ApiProblem };

const TIMEOUT_MS = 5000;

function urlOf(base: string, call: ApiCall): URL {
  const url = new URL(call.path, base);
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  }
  return url;
}

export async function callApi<S extends z.ZodType>(call: ApiCall<S>): Promise<ApiResult<z.output<S>>> {
  const config = dashboardConfig();
  if (!config.ok) return { ok: false, problem: misconfiguredProblem(config.message) };

  const request: Record<string, string> = { accept: 'application/json' };
  const clientIp = clientIpFromForwardedFor(
    (await headers()).get('x-forwarded-for'),
    config.config.DASHBOARD_PROXY_HOPS,
  );
  if (clientIp !== undefined) request['x-forwarded-for'] = clientIp;

  if ((call.auth ?? 'session') === 'session') {
    const credentials = await readSessionCredentials();
    if (credentials === null) {
      return {
        ok: false,
        problem: problemFromResponse(401, { code: 'unauthenticated', title: 'Signed out' }),
      };
    }
    request['cookie'] = `gh_session=${credentials.sessionId}`;
    if (call.method !== 'GET') request['x-csrf-token'] = credentials.csrfToken;
  }

  const isWrite = call.method !== 'GET';
  if (isWrite) request['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(urlOf(config.config.API_URL, call), {
      method: call.method,
      headers: request,
      body: isWrite ? JSON.stringify(call.body ?? {}) : undefined,
      cache: 'no-store',
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    // Refused, reset, DNS or timeout: the error's text can name hosts and ports, so none of it is kept.
    return { ok: false, problem: unreachableProblem() };
  }

  const body = await readJson(response);
  if (!response.ok) return { ok: false, problem: problemFromResponse(response.status, body) };
  const answer = readAnswer(call.answer, response.status, body);
  return answer.ok ? { ...answer, headers: response.headers } : answer;
}

async function readJson(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  try {
    const body: unknown = await response.json();
    return body;
  } catch {
    return undefined;
  }
}
