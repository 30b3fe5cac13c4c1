import { oauthCredentialView } from '@gatehouse/contracts';
import { NextResponse, type NextRequest } from 'next/server';
import { callApi } from '@/server/api-client';
import { dashboardConfig } from '@/server/dashboard-env';

// Where the API's OAuth callback sends a browser that brought the dashboard's session rather than the API's
// (decision 0089): the redirect's query (code, state, iss) is rebuilt on the API's callback address and
// finished with this session (oauth.signIn.complete), which is the one the sign-in is bound to. The browser then
// lands on the Connections page with the outcome as an id or a problem code; the code itself is never shown, kept
// or sent as a Referer. A third party that sends someone here spends nothing of theirs: the API refuses a state
// another session started.

const CALLBACK_PATH = '/v1/oauth/callback';

/**
 * A relative Location: the address the browser used is kept as it was (Next.js's own `request.url` names the
 * host it listens on, whose cookies the browser may not hold).
 */
function landing(name: 'signedIn' | 'signInError', value: string): NextResponse {
  const target = new URLSearchParams({ [name]: value });
  return new NextResponse(null, {
    status: 303,
    headers: {
      location: `/connections?${target.toString()}`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
  });
}

export async function GET(request: NextRequest): Promise<NextResponse> {
  const config = dashboardConfig();
  if (!config.ok) return landing('signInError', 'dashboard_misconfigured');
  const base = config.config.API_PUBLIC_URL ?? config.config.API_URL;
  const redirectUrl = `${new URL(CALLBACK_PATH, base).href}${request.nextUrl.search}`;
  const result = await callApi({
    answer: oauthCredentialView,
    method: 'POST',
    path: '/v1/oauth/sign-in/complete',
    body: { redirectUrl },
  });
  if (!result.ok) return landing('signInError', result.problem.code);
  return landing('signedIn', result.data.id);
}
