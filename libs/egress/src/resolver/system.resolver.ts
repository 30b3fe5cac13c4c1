// The production resolver: the OS resolver (getaddrinfo, so /etc/hosts and search domains apply exactly as
// they would for any other process here), every address, in the order the resolver gave them. A name that
// does not resolve, for whatever DNS reason, is `unresolvable`; anything else is a bug and is thrown.
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { ResolveResult, Resolver } from './resolver.port.js';

export type LookupAll = (
  hostname: string,
  options: { all: true; order: 'verbatim' },
) => Promise<LookupAddress[]>;

export interface SystemResolverOptions {
  /** For tests: stands in for `node:dns/promises` lookup. */
  readonly lookup?: LookupAll;
}

const DNS_FAILURE_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'ENODATA',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EAI_NODATA',
  'ESERVFAIL',
  'EREFUSED',
  'ETIMEOUT',
  'EBADNAME',
  'EBADRESP',
  'ECONNREFUSED',
  'ENONAME',
]);

function isDnsFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  return syscall === 'getaddrinfo' || (typeof code === 'string' && DNS_FAILURE_CODES.has(code));
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
