import { isIP } from 'node:net';

/**
 * The browser's address, as the dashboard tells the API (X-Forwarded-For; the API believes it only from the
 * TRUSTED_PROXIES it was configured with, i.e. this server). Next.js fills X-Forwarded-For with the socket
 * address only when the request has none, and does not expose the socket address otherwise, so the value is
 * read `proxyHops` entries from the right: each reverse proxy in front of the dashboard appends the address it
 * saw, and whatever stands further left was written by the client. With no proxy in front (hops 0) a client
 * that sends its own X-Forwarded-For can choose the address; the API's per-account throttle still holds, and
 * docs/decisions/0016-dashboard-design-system.md says to put the dashboard behind a proxy in production.
 * Returns undefined when there is no usable address (the API then uses the dashboard's own).
 */
export function clientIpFromForwardedFor(header: string | null, proxyHops: number): string | undefined {
  if (header === null) return undefined;
  const hops = header
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop.length > 0);
  // Fewer entries than proxies means the chain is not what the operator declared: forward nothing rather than
  // an entry the client may have written.
  const candidate = hops[hops.length - 1 - proxyHops];
  if (candidate === undefined) return undefined;
  return isIP(candidate) === 0 ? undefined : candidate;
}
