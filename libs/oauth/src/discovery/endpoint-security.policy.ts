// Every endpoint discovery hands out must be https. The one exception is the operator's test-only
// `allowInsecureLoopback` (refused in production by the API's config): plain http to a loopback host.

export interface EndpointSecurityOptions {
  readonly allowInsecureLoopback: boolean;
}

const LOOPBACK_V4 = /^127(?:\.\d{1,3}){3}$/;

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || LOOPBACK_V4.test(host);
}

export function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** An absolute URL Gatehouse may send OAuth traffic to: https, no userinfo, no fragment. */
export function isAcceptableEndpoint(text: string, options: EndpointSecurityOptions): boolean {
  const url = parseUrl(text);
  if (!url || url.username !== '' || url.password !== '' || url.hash !== '') return false;
  if (url.protocol === 'https:') return true;
  return options.allowInsecureLoopback && url.protocol === 'http:' && isLoopbackHost(url.hostname);
}
