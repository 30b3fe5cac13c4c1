import type { HeldLease, HeldLeases } from './held-leases-registry';
import {
  LeaseApiError,
  type IssueLeaseInput,
  type IssuedLease,
  type LeaseApiClient,
} from './lease-api.client';

// A holder's answer to an upstream 401 on a lease that carries an access token (decision 0082): one fresh lease of
// the same server, asked with the refused token's digest so the API refreshes that token if it is still the stored
// one, and the fresh lease's token handed to the connection (libs/mcp-client's `freshAccessToken`, which asks at
// most once per connection). The fresh lease is held like the first, so a revocation that concerns it closes the
// connection it now authenticates, and released with it. A fresh lease of anything but the same server (approval,
// definition, address) gives no token: the connection was admitted for the first one.

/** What a fresh lease was not: said to the holder's log, never a token. */
export type FreshLeaseRefusal =
  | { readonly reason: 'refused'; readonly status: number; readonly code: string }
  | { readonly reason: 'api_unreachable'; readonly status: number | null }
  | { readonly reason: 'another_server' | 'no_access_token' | 'lease_dropped' };

export interface FreshLeaseTokensOptions {
  readonly api: LeaseApiClient;
  readonly leases: HeldLeases;
  /** What the first lease was asked with: the fresh one is asked for the same. */
  readonly input: IssueLeaseInput;
  /** The lease the connection was opened with, and its entry in `leases`. */
  readonly lease: IssuedLease;
  readonly held: HeldLease;
  readonly onRefused?: (refusal: FreshLeaseRefusal) => void;
}

export interface FreshLeaseTokens {
  /** For connectAdmitted's `freshAccessToken`: told the refused token's digest only. */
  readonly freshAccessToken: (refused: { readonly accessTokenSha256: string }) => Promise<string | null>;
  /** Forgets and releases the fresh lease, if one was issued (rejects as LeaseApiClient.release does). */
  release(): Promise<void>;
}

export function freshLeaseTokens(options: FreshLeaseTokensOptions): FreshLeaseTokens {
  const { api, leases, lease, held } = options;
  const refused = (refusal: FreshLeaseRefusal): null => {
    options.onRefused?.(refusal);
    return null;
  };
  let freshId: string | null = null;

  const freshAccessToken = async ({ accessTokenSha256 }: { readonly accessTokenSha256: string }) => {
    // One fresh lease per holder of a connection, whatever the transport asks.
    if (freshId !== null) return null;
    if (!held.live) return refused({ reason: 'lease_dropped' });
    let issued;
    try {
      issued = await api.issue(
        { ...options.input, refusedAccessTokenSha256: accessTokenSha256 },
        held.signal,
      );
    } catch (error) {
      if (error instanceof LeaseApiError) return refused({ reason: 'api_unreachable', status: error.status });
      throw error;
    }
    if (!issued.ok) return refused({ reason: 'refused', status: issued.status, code: issued.code });
    const fresh = issued.lease;
    freshId = fresh.id;
    const freshHeld = leases.hold({
      leaseId: fresh.id,
      tenantId: fresh.tenantId,
      workspaceId: fresh.workspaceId,
      serverName: fresh.serverName,
      approvalId: fresh.approvalId,
      principalUserId: fresh.principalUserId,
    });
    // Its drop is the first lease's drop: the connection closes on that one's signal.
    freshHeld.signal.addEventListener(
      'abort',
      () => leases.drop(freshHeld.dropped ?? 'revoked', (facts) => facts.leaseId === lease.id),
      { once: true },
    );
    if (!held.live) return refused({ reason: 'lease_dropped' });
    if (!sameServer(lease, fresh)) return refused({ reason: 'another_server' });
    const transport = fresh.transport.transport;
    const token = transport.kind === 'http' ? (transport.oauth?.accessToken ?? null) : null;
    return token === null ? refused({ reason: 'no_access_token' }) : token;
  };

  return {
    freshAccessToken,
    release: async () => {
      if (freshId === null) return;
      leases.forget(freshId);
      await api.release(freshId);
    },
  };
}

function sameServer(first: IssuedLease, fresh: IssuedLease): boolean {
  const [a, b] = [first.transport.transport, fresh.transport.transport];
  return (
    fresh.workspaceId === first.workspaceId &&
    fresh.serverName === first.serverName &&
    fresh.approvalId === first.approvalId &&
    fresh.definitionFingerprint === first.definitionFingerprint &&
    fresh.principalUserId === first.principalUserId &&
    a.kind === 'http' &&
    b.kind === 'http' &&
    a.url === b.url
  );
}
