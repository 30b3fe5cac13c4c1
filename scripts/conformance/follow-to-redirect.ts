// Plays the user's browser at the authorization server: GETs the authorization URL and follows its redirects
// (the conformance servers approve at once) until one points at our redirect URI, which is returned unvisited.
// This is the user agent's part of the flow, not Gatehouse's, so it uses the plain fetch; Gatehouse's own OAuth
// requests (metadata, registration, token) go through the egress fetch in libs/oauth.
const MAX_HOPS = 5;

export async function followToRedirect(
  authorizationUrl: string,
  redirectUri: string,
): Promise<string | null> {
  let next = authorizationUrl;
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    if (next.startsWith(redirectUri)) return next;
    const response = await fetch(next, { redirect: 'manual' });
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return null;
    next = new URL(location, next).href;
  }
  return next.startsWith(redirectUri) ? next : null;
}
