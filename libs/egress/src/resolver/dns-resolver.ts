// The production resolver: DNS queries (A and AAAA) through c-ares, `node:dns`'s `Resolver`, with a hard bound
// on each lookup. Not getaddrinfo (`dns.lookup`): that has no timeout and holds one of
// libuv's 4 threadpool threads for as long as it takes, the pool argon2 password hashing runs on, so a few
// names whose DNS never answers would stall every sign-in. c-ares sends its queries from the event loop.
// Unlike getaddrinfo it reads neither /etc/hosts nor resolv.conf search domains: `localhost` and the names
// under it are answered here (RFC 6761: always this host), an IP literal is its own answer, and every other
// name must resolve in DNS as written (admission hands over fully normalized names).
import { isIP } from 'node:net';
import { Resolver as DnsResolver } from 'node:dns/promises';
import { isLocalhostName } from '../policy/host-name.js';
import { isDnsFailure, isEmptyAnswer } from './dns-failure.js';
import type { ResolveResult, Resolver } from './resolver.port.js';

export interface DnsResolverOptions {
  /** Bound on one whole lookup (both record types, every retry); past it the name is `unresolvable`. */
  readonly timeoutMs?: number;
  /** Attempts at each name server before c-ares gives up on it. */
  readonly tries?: number;
  /** Name servers (`ip` or `ip:port`, as `Resolver#setServers` takes them); the host's (resolv.conf) when absent. */
  readonly servers?: readonly string[];
}

export const DEFAULT_DNS_TIMEOUT_MS = 5_000;
export const DEFAULT_DNS_TRIES = 2;

const LOOPBACK: readonly string[] = Object.freeze(['127.0.0.1', '::1']);
const UNRESOLVABLE: ResolveResult = Object.freeze({ ok: false, reason: 'unresolvable' });

function assertPositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`createDnsResolver: ${name} must be a positive integer`);
}

async function recordsOf(query: Promise<string[]>): Promise<string[]> {
  try {
    return await query;
  } catch (error) {
    if (isEmptyAnswer(error)) return [];
    throw error;
  }
}

export function createDnsResolver(options: DnsResolverOptions = {}): Resolver {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DNS_TIMEOUT_MS;
  const tries = options.tries ?? DEFAULT_DNS_TRIES;
  assertPositiveInteger('timeoutMs', timeoutMs);
  assertPositiveInteger('tries', tries);
  // c-ares doubles its wait on each round of retries (T + 2T + 4T ...); sized so the rounds fit the bound. The
  // deadline below is what guarantees it, whatever c-ares does.
  const attemptTimeoutMs = Math.max(1, Math.floor(timeoutMs / (2 ** tries - 1)));
  const servers = options.servers === undefined ? undefined : [...options.servers];

  return {
    async resolve(hostname: string): Promise<ResolveResult> {
      if (isIP(hostname) !== 0) return { ok: true, addresses: [hostname] };
      if (isLocalhostName(hostname)) return { ok: true, addresses: LOOPBACK };
      // One c-ares channel per lookup: cancel() ends every query of its channel, and must end only this lookup.
      const resolver = new DnsResolver({ timeout: attemptTimeoutMs, tries });
      if (servers !== undefined) resolver.setServers(servers);
      const deadline = setTimeout(() => resolver.cancel(), timeoutMs);
      try {
        // Both types must answer (records or a definite "none"): a name whose AAAA lookup failed is not known
        // to have only the A addresses, so it is unresolvable rather than half-checked.
        const [v4, v6] = await Promise.all([
          recordsOf(resolver.resolve4(hostname)),
          recordsOf(resolver.resolve6(hostname)),
        ]);
        const addresses = [...v4, ...v6];
        return addresses.length === 0 ? UNRESOLVABLE : { ok: true, addresses };
      } catch (error) {
        if (isDnsFailure(error)) return UNRESOLVABLE;
        throw error;
      } finally {
        clearTimeout(deadline);
        // The other record type may still be waiting after one failed.
        resolver.cancel();
      }
    },
  };
}
