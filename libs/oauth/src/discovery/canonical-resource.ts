// The canonical URI of an MCP server as a resource indicator (RFC 8707, as MCP uses it): scheme and host
// lowercase, default port dropped, no fragment, no userinfo; the path kept as it is, except that a bare `/`
// is dropped. The protected-resource metadata must name exactly this, and sign-ins are bound to it.
import { parseUrl } from './endpoint-security.policy';

export function canonicalResourceUri(text: string): string | null {
  const url = parseUrl(text);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  if (url.username !== '' || url.password !== '' || url.hostname === '') return null;
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** `scheme://host[:port]` of an http(s) URL, for same-origin checks. */
export function originOf(text: string): string | null {
  const url = parseUrl(text);
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.origin : null;
}
