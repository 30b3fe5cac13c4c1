import { NextResponse, type NextRequest } from 'next/server';
import { REQUEST_PATH_HEADER } from './server/return-path';

// Hands the path and query the browser asked for to the server components (which cannot read their own URL),
// so a page that finds no session sends the visitor to sign-in with that deep link to return to. Nothing else:
// every page still checks the session itself (pageAccess), and a client-sent header of that name is replaced.

export function proxy(request: NextRequest): NextResponse {
  const headers = new Headers(request.headers);
  headers.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ['/((?!_next/|api/|icon\\.svg|favicon\\.ico).*)'],
};
