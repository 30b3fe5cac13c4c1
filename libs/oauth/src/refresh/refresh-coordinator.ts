// Refresh once per credential across every API process (decision 0056).
//
// - In a process, concurrent callers for one credential share one refresh (waiters reuse its result).
// - Across processes, the refresh runs under a FencingLock on the credential that extends itself while held.
// - Under the lock, the credential is read again: a newer version with a usable access token is the winner's
//   result, reused. Otherwise the holder marks the credential `refresh_in_flight` by compare-and-swap, then,
//   right before sending, extends its lease to outlast the grant's own deadline (which also confirms it still
//   holds the lock); a holder that cannot confirm does not send, and takes its mark back.
// - The grant is aborted at its deadline or the moment the holder learns it lost the lock. Every write after it
//   is a compare-and-swap on the marked version, so a late holder never overwrites newer tokens and a refused
//   refresh never clears a token someone else rotated in meanwhile.
// - A refresh token that may have reached the server is never sent again: a `refresh_in_flight` mark left by a
//   holder that died or never learned the outcome turns the credential into `needs_sign_in`.
import type { FencingLock, HeldLock } from '@gatehouse/coordination';
import type { PinnedFetch } from '@gatehouse/egress';
import type { RegisteredClient } from '../tokens/client-authentication';
import { requestTokenGrant } from '../tokens/token-grant';
import type { OAuthTokens } from '../tokens/token-set';
import { credentialKeyId, type CredentialKey } from './credential-key';
import type { CredentialRecord, StoredCredential, TokenStore } from './token-store.port';

export type AccessTokenRefusal =
  /** No credential for this key. */
  | 'not_signed_in'
  /** Only a new sign-in helps. */
  | 'needs_sign_in'
  /** No refresh could be made now (lock not had in time, endpoint unreachable before sending); retry later. */
  | 'refresh_unavailable';

export type AccessTokenResult =
  | {
      readonly ok: true;
      readonly accessToken: string;
      readonly expiresAt: number | null;
      readonly version: number;
    }
  | { readonly ok: false; readonly reason: AccessTokenRefusal };

export interface RefreshCoordinatorOptions {
  readonly lock: FencingLock;
  readonly store: TokenStore;
  /**
   * The egress lib's pinned fetch. Optional when every call brings its own (`RefreshOptions.fetch`): the API's
   * egress depends on the tenant the credential belongs to.
   */
  readonly fetch?: PinnedFetch;
  /** The client registration the credential was issued to (its issuer and client id, in the key's tenant). */
  readonly clientFor: (
    issuer: string,
    clientId: string,
    key: CredentialKey,
  ) => Promise<RegisteredClient | null>;
  /** Epoch ms (token expiry); Date.now when absent. */
  readonly now?: () => number;
  /** The lock's lease, renewed by the holder every third of it. Default 10 s. */
  readonly lockTtlMs?: number;
  /** The grant's own deadline. Default 5 s. */
  readonly grantTimeoutMs?: number;
  /** Kept between the grant's deadline and the end of the lease (clock drift, Redis latency). Default 1 s. */
  readonly leaseMarginMs?: number;
  /** How long a caller waits for another holder's refresh. Default: two leases plus the grant's deadline. */
  readonly waitMs?: number;
  /** An access token expiring within this is refreshed before use. Default 60 s. */
  readonly refreshBeforeExpiryMs?: number;
}

export interface RefreshOptions {
  /** The access token a server just refused (401): refresh only if it is still the stored one. */
  readonly rejectedAccessToken?: string;
  /**
   * The fetch a refresh this call starts goes through (else the coordinator's). A caller that joins a refresh
   * already running in this process shares that one's.
   */
  readonly fetch?: PinnedFetch;
}

const LOCK_PREFIX = 'oauth-refresh:';

export class RefreshCoordinator {
  private readonly inFlight = new Map<string, Promise<AccessTokenResult>>();
  private readonly reads = new Map<string, Promise<AccessTokenResult>>();
  private readonly now: () => number;
  private readonly lockTtlMs: number;
  private readonly grantTimeoutMs: number;
  private readonly leaseMarginMs: number;
  private readonly waitMs: number;
  private readonly refreshBeforeExpiryMs: number;

  constructor(private readonly options: RefreshCoordinatorOptions) {
    this.now = options.now ?? Date.now;
    this.lockTtlMs = positive('lockTtlMs', options.lockTtlMs ?? 10_000);
    this.grantTimeoutMs = positive('grantTimeoutMs', options.grantTimeoutMs ?? 5_000);
    this.leaseMarginMs = positive('leaseMarginMs', options.leaseMarginMs ?? 1_000);
    this.waitMs = positive('waitMs', options.waitMs ?? 2 * this.lockTtlMs + this.grantTimeoutMs);
    this.refreshBeforeExpiryMs = nonNegative(
      'refreshBeforeExpiryMs',
      options.refreshBeforeExpiryMs ?? 60_000,
    );
  }

  /**
   * A usable access token: the stored one while it is fresh, otherwise one refresh (shared). Callers of one
   * credential in this process share one store read and its outcome: each read is a database transaction, and a
   * burst of callers (a gateway's sessions, a worker pool's jobs) must not take one each from the pool.
   */
  getAccessToken(
    key: CredentialKey,
    options: Pick<RefreshOptions, 'fetch'> = {},
  ): Promise<AccessTokenResult> {
    const id = credentialKeyId(key);
    const running = this.reads.get(id);
    if (running) return running;
    const reading = this.readAccessToken(key, options).finally(() => this.reads.delete(id));
    this.reads.set(id, reading);
    return reading;
  }

  private async readAccessToken(
    key: CredentialKey,
    options: Pick<RefreshOptions, 'fetch'>,
  ): Promise<AccessTokenResult> {
    const current = await this.options.store.get(key);
    if (!current) return { ok: false, reason: 'not_signed_in' };
    if (this.isUsable(current)) return usableResult(current);
    if (current.status === 'needs_sign_in') return { ok: false, reason: 'needs_sign_in' };
    return this.refreshShared(key, current.version, undefined, this.fetchFor(options));
  }

  /** After a server refused an access token: one refresh, unless someone already replaced that token. */
  async refresh(key: CredentialKey, options: RefreshOptions = {}): Promise<AccessTokenResult> {
    const current = await this.options.store.get(key);
    if (!current) return { ok: false, reason: 'not_signed_in' };
    if (current.status === 'needs_sign_in') return { ok: false, reason: 'needs_sign_in' };
    const rejected = options.rejectedAccessToken;
    if (rejected !== undefined && current.tokens?.accessToken !== rejected && this.isUsable(current))
      return usableResult(current);
    return this.refreshShared(key, current.version, rejected, this.fetchFor(options));
  }

  private fetchFor(options: Pick<RefreshOptions, 'fetch'>): PinnedFetch {
    const fetch = options.fetch ?? this.options.fetch;
    if (fetch === undefined)
      throw new Error('RefreshCoordinator: no fetch (neither the call nor the options)');
    return fetch;
  }

  private refreshShared(
    key: CredentialKey,
    seenVersion: number,
    rejected: string | undefined,
    fetch: PinnedFetch,
  ): Promise<AccessTokenResult> {
    const id = credentialKeyId(key);
    const running = this.inFlight.get(id);
    if (running) return running;
    const refresh = this.refreshUnderLock(key, id, seenVersion, rejected, fetch).finally(() => {
      this.inFlight.delete(id);
    });
    this.inFlight.set(id, refresh);
    return refresh;
  }

  private async refreshUnderLock(
    key: CredentialKey,
    id: string,
    seenVersion: number,
    rejected: string | undefined,
    fetch: PinnedFetch,
  ): Promise<AccessTokenResult> {
    const held = await this.options.lock.acquireWithWait(`${LOCK_PREFIX}${id}`, {
      ttlMs: this.lockTtlMs,
      waitMs: this.waitMs,
      autoExtend: true,
    });
    if (!held) {
      // Someone else held it for the whole wait: their result, if there is one by now.
      const current = await this.options.store.get(key);
      if (current && current.version !== seenVersion && this.isUsable(current)) return usableResult(current);
      return { ok: false, reason: 'refresh_unavailable' };
    }
    try {
      return await this.refreshHeld(key, held, seenVersion, rejected, fetch);
    } finally {
      await held.release().catch(() => false);
    }
  }

  private async refreshHeld(
    key: CredentialKey,
    held: HeldLock,
    seenVersion: number,
    rejected: string | undefined,
    fetch: PinnedFetch,
  ): Promise<AccessTokenResult> {
    const { store } = this.options;
    // A compare-and-swap can only lose to another writer while this holder still holds the lock if that
    // writer is not a refresh (a new sign-in, a sign-out): re-read and decide again, a bounded number of times.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const current = await store.get(key);
      if (!current) return { ok: false, reason: 'not_signed_in' };
      const replaced = current.version !== seenVersion || current.tokens?.accessToken !== rejected;
      if (this.isUsable(current) && (rejected === undefined || replaced)) return usableResult(current);
      if (current.status === 'needs_sign_in') return { ok: false, reason: 'needs_sign_in' };
      if (current.status === 'refresh_in_flight') {
        // The holder before this one may have sent the refresh token and never recorded the outcome.
        return this.needsSignIn(key, current);
      }
      const refreshToken = current.tokens?.refreshToken ?? null;
      if (refreshToken === null) return this.needsSignIn(key, current);
      const client = await this.options.clientFor(key.issuer, current.clientId, key);
      if (!client || client.issuer !== key.issuer || client.clientId !== current.clientId)
        return this.needsSignIn(key, current);

      const marked = await store.set(
        key,
        { ...recordOf(current), status: 'refresh_in_flight', refreshFencingToken: String(held.fencingToken) },
        current.version,
      );
      if (!marked.ok) continue;
      return this.sendRefresh(
        key,
        held,
        { ...current, status: 'refresh_in_flight', version: marked.version },
        client,
        refreshToken,
        fetch,
      );
    }
    return { ok: false, reason: 'refresh_unavailable' };
  }

  private async sendRefresh(
    key: CredentialKey,
    held: HeldLock,
    marked: StoredCredential,
    client: RegisteredClient,
    refreshToken: string,
    fetch: PinnedFetch,
  ): Promise<AccessTokenResult> {
    const { store } = this.options;
    // Right before sending: still the holder, with a lease that outlasts the grant's deadline.
    const confirmed = await held.extend(this.grantTimeoutMs + this.leaseMarginMs).catch(() => false);
    if (!confirmed || held.remainingMs() <= this.grantTimeoutMs) {
      // Not sent: take the mark back (only if nobody wrote since), so the next holder may refresh.
      await store.set(
        key,
        { ...recordOf(marked), status: 'active', refreshFencingToken: null },
        marked.version,
      );
      return { ok: false, reason: 'refresh_unavailable' };
    }
    const grant = await requestTokenGrant(fetch, {
      tokenEndpoint: marked.tokenEndpoint,
      client,
      resource: key.resource,
      grant: { grantType: 'refresh_token', refreshToken },
      signal: AbortSignal.any([AbortSignal.timeout(this.grantTimeoutMs), held.lost]),
      now: this.now,
    });
    if (grant.ok) {
      const tokens: OAuthTokens = {
        ...grant.tokens,
        // A server that does not rotate keeps the refresh token it had.
        refreshToken: grant.tokens.refreshToken ?? refreshToken,
      };
      const written = await store.set(
        key,
        { ...recordOf(marked), status: 'active', tokens, refreshFencingToken: null },
        marked.version,
      );
      if (written.ok)
        return {
          ok: true,
          accessToken: tokens.accessToken,
          expiresAt: tokens.expiresAt,
          version: written.version,
        };
      // Someone wrote meanwhile (a new sign-in, a sign-out): theirs stands.
      const current = written.current;
      if (current && this.isUsable(current)) return usableResult(current);
      return { ok: false, reason: current ? 'needs_sign_in' : 'not_signed_in' };
    }
    if (!grant.maybeSent) {
      await store.set(
        key,
        { ...recordOf(marked), status: 'active', refreshFencingToken: null },
        marked.version,
      );
      return { ok: false, reason: 'refresh_unavailable' };
    }
    // Refused (invalid_grant and the like), or sent with no answer we can trust: the refresh token is spent or
    // may be. Never sent again; only a new sign-in helps.
    return this.needsSignIn(key, marked);
  }

  // Compare-and-swap on the version read: a token someone rotated in meanwhile is never cleared.
  private async needsSignIn(key: CredentialKey, current: StoredCredential): Promise<AccessTokenResult> {
    const written = await this.options.store.set(
      key,
      { ...recordOf(current), status: 'needs_sign_in', tokens: null, refreshFencingToken: null },
      current.version,
    );
    if (!written.ok && written.current && this.isUsable(written.current))
      return usableResult(written.current);
    return { ok: false, reason: 'needs_sign_in' };
  }

  private isUsable(credential: StoredCredential): boolean {
    if (credential.status !== 'active' || credential.tokens === null) return false;
    const { expiresAt } = credential.tokens;
    return expiresAt === null || expiresAt - this.refreshBeforeExpiryMs > this.now();
  }
}

function usableResult(credential: StoredCredential): AccessTokenResult {
  const tokens = credential.tokens as OAuthTokens;
  return {
    ok: true,
    accessToken: tokens.accessToken,
    expiresAt: tokens.expiresAt,
    version: credential.version,
  };
}

function recordOf(credential: StoredCredential): CredentialRecord {
  return {
    status: credential.status,
    tokens: credential.tokens,
    tokenEndpoint: credential.tokenEndpoint,
    revocationEndpoint: credential.revocationEndpoint,
    clientId: credential.clientId,
    refreshFencingToken: credential.refreshFencingToken,
  };
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new TypeError(`${name} must be a non-negative integer`);
  return value;
}
