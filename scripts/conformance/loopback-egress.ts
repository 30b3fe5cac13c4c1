// The conformance suite's servers listen on loopback over plain http: the operator's test-only insecure
// loopback (refused in production by the API's config) is on, and the server's host resolves to 127.0.0.1 only.
import { createFixedResolver, createPinnedFetch, type PinnedFetch } from '@gatehouse/egress';

export interface LoopbackEgress {
  readonly fetch: PinnedFetch;
  /** The addresses the server's host was admitted with (the admitted transport's `addresses`). */
  readonly addresses: string[];
}

export function loopbackEgress(serverUrl: string): LoopbackEgress {
  const host = new URL(serverUrl).hostname.toLowerCase();
  const addresses = ['127.0.0.1'];
  const fetch = createPinnedFetch({
    policy: {
      allowInsecureLoopback: true,
      operatorDenylist: { cidrs: [], hostnames: [] },
      operatorAllowedPrivateRanges: [],
      tenantOptedInPrivateRanges: [],
    },
    resolver: createFixedResolver({ [host]: addresses, localhost: addresses }),
    timeoutMs: 10_000,
    maxResponseBytes: 1_000_000,
  });
  return { fetch, addresses };
}
