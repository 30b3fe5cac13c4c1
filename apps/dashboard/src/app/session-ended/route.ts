import { NextResponse, type NextRequest } from 'next/server';
import { signInPathFor } from '@/server/return-path';
import { CSRF_COOKIE, SESSION_COOKIE } from '@/server/session-cookies';

// Where pages send a browser whose API session ended (expired, signed out elsewhere, membership removed):
// server components cannot change cookies, so this route forgets the dashboard's copies, then shows sign-in.
// A GET that only deletes our own cookies is harmless if a third party triggers it.
export function GET(request: NextRequest): NextResponse {
  const target = signInPathFor(request.nextUrl.searchParams.get('next'), 'expired');
  const response = NextResponse.redirect(new URL(target, request.url), 303);
  response.cookies.delete(SESSION_COOKIE);
  response.cookies.delete(CSRF_COOKIE);
  response.headers.set('cache-control', 'no-store');
  return response;
}
