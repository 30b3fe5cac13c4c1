// The OS resolver (getaddrinfo, so /etc/hosts and search domains apply exactly as
// they would for any other process here), every address, in the order the resolver gave them. A name that
// does not resolve, for whatever DNS reason, is `unresolvable`; anything else is a bug and is thrown.
// Unbounded: getaddrinfo has no timeout and holds one of libuv's 4 threadpool threads (shared with argon2 and
// file I/O) for as long as it takes. Where a lookup must be bounded, use createDnsResolver (dns.resolver.ts).
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isDnsFailure } from './dns-failure.js';
import type { ResolveResult, Resolver } from './resolver.port.js';

export type LookupAll = (
  hostname: string,
  options: { all: true; order: 'verbatim' },
) => Promise<LookupAddress[]>;

export interface SystemResolverOptions {
  /** For tests: stands in for `node:dns/promises` lookup. */
  readonly lookup?: LookupAll;
}

export function createSystemResolver(options: SystemResolverOptions = {}): Resolver {
  const lookup: LookupAll =
    options.lookup ?? ((hostname, lookupOptions) => dnsLookup(hostname, lookupOptions));
  return {
    async resolve(hostname: string): Promise<ResolveResult> {
      try {
        const answers = await lookup(hostname, { all: true, order: 'verbatim' });
        return { ok: true, addresses: answers.map((answer) => answer.address) };
      } catch (error) {
        if (isDnsFailure(error)) return { ok: false, reason: 'unresolvable' };
        throw error;
      }
    },
  };
}
