import { BlockList, isIP } from 'node:net';

/**
 * The addresses whose X-Forwarded-For we believe: the operator's TRUSTED_PROXIES (the dashboard's server, a
 * load balancer). node:net's BlockList matches IPv4, IPv6, CIDR blocks and IPv4-mapped IPv6 peers
 * (`::ffff:10.0.0.1` matches `10.0.0.0/8`), so no dependency is needed.
 */
export interface TrustedProxies {
  isTrusted(address: string): boolean;
}

/** Entries are IPs or CIDRs, already validated by the config schema (platform's `ipListField`). */
export function createTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0) throw new TypeError('trusted proxy entries must be IP addresses or CIDR blocks');
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return {
    isTrusted(address: string): boolean {
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** `::ffff:1.2.3.4` → `1.2.3.4`, so one client has one throttle key whichever socket family it arrived on. */
export function canonicalIp(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined && isIP(mapped[1]) === 4) return mapped[1];
  return address.toLowerCase();
}

export interface ClientAddressInput {
  /** The TCP peer (`request.socket.remoteAddress`). */
  readonly remoteAddress: string | undefined;
  /** The raw X-Forwarded-For header(s). */
  readonly forwardedFor: string | readonly string[] | undefined;
}

/**
 * The client's address. X-Forwarded-For is read only when the TCP peer is a trusted proxy, and then from the
 * right: each hop a trusted proxy appended is believed, and the first address not itself a trusted proxy is
 * the client (what that trusted proxy saw). Anything further left was written by the client and is ignored.
 * This is the algorithm of Fastify's `trustProxy` (proxy-addr), written out so the rule is tested here and
 * does not depend on how the HTTP server was built. An entry that is not an IP can only come from a
 * misbehaving trusted proxy; we stop there and use the last address we could believe.
 */
export function clientIpOf(input: ClientAddressInput, trusted: TrustedProxies): string {
  const peer = input.remoteAddress === undefined ? 'unknown' : canonicalIp(input.remoteAddress);
  if (!trusted.isTrusted(peer)) return peer;
  const hops = forwardedHops(input.forwardedFor);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? '';
    if (isIP(hop) === 0) break;
    client = canonicalIp(hop);
    if (!trusted.isTrusted(client)) break;
  }
  return client;
}

function forwardedHops(header: string | readonly string[] | undefined): string[] {
  if (header === undefined) return [];
  const joined = typeof header === 'string' ? header : header.join(',');
  return joined
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop.length > 0);
}
