import { headers } from 'next/headers';
import { clientIpFromForwardedFor } from './client-ip';
import { dashboardConfig } from './dashboard-env';
import { readSessionCredentials } from './session-cookies';

// A GET to the API whose answer is passed on as it streams (the audit export), with the caller's session as
// callApi sends it. No JSON is read here: the route hands the body to the browser, or its problem code back
// to the page.

export type ApiStream =
  { readonly ok: true; readonly response: Response } | { readonly ok: false; readonly code: string };

export async function streamApi(path: string, query: URLSearchParams): Promise<ApiStream> {
  const config = dashboardConfig();
  if (!config.ok) return { ok: false, code: 'dashboard_misconfigured' };
  const credentials = await readSessionCredentials();
  if (credentials === null) return { ok: false, code: 'unauthenticated' };
  const request: Record<string, string> = { cookie: `gh_session=${credentials.sessionId}` };
  const clientIp = clientIpFromForwardedFor(
    (await headers()).get('x-forwarded-for'),
    config.config.DASHBOARD_PROXY_HOPS,
  );
  if (clientIp !== undefined) request['x-forwarded-for'] = clientIp;
  const url = new URL(path, config.config.API_URL);
  url.search = query.toString();
  let response: Response;
  try {
    response = await fetch(url, { headers: request, cache: 'no-store', redirect: 'manual' });
  } catch {
    return { ok: false, code: 'api_unreachable' };
  }
  if (response.ok) return { ok: true, response };
  const body: unknown = await response.json().catch(() => null);
  const code =
    typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string'
      ? (body as { code: string }).code
      : `http_${response.status}`;
  return { ok: false, code };
}
