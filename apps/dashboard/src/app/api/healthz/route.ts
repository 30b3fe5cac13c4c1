// Liveness for `npm start` and container health checks: answers 200 as soon as the Next.js server serves
// requests. It deliberately does not call the API, so a slow API never marks the dashboard itself dead.
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
}
