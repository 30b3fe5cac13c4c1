import {
  freshLeaseTokens,
  LeaseApiError,
  type FreshLeaseTokens,
  type HeldLease,
  type HeldLeases,
  type IssuedLease,
  type LeaseApiClient,
} from '@gatehouse/lease-holder';
import { superviseAdmitted, type ConnectionSupervisor, type RunAsOptions } from '@gatehouse/mcp-client';
import type { Logger } from '@gatehouse/platform';

// The gateway's upstream connections, one per (workspace, server, principal): a stdio server gets a child per
// principal, so one person's state and cancellations never reach another's. Each is obtained through a transport
// lease asked with the gateway token for the caller's principal (the API decides activation, admission and the
// pool's authority), connected and supervised by libs/mcp-client, and held in the shared HeldLeases registry:
// a revocation event that concerns the lease drops it, which closes the connection (and the child's process
// group) at once. Leases are renewed before they expire (a refused renewal drops the connection); an upstream
// that goes away is leased again on the next call, which the API may refuse. An upstream's list_changed is reported
// to the API on its lease (catalog.refresh), which enqueues the server's rediscovery. A server that refuses the
// lease's access token (401) is retried once per connection with a fresh lease's token (decision 0098, as the
// worker does): the fresh lease is held like the first and released with it; a second refusal is `auth`.

export interface UpstreamKey {
  readonly tenantId: string;
  readonly workspaceId: string;
  readonly server: string;
  /** The principal; null: the workspace alone. */
  readonly principal: string | null;
}

export type UpstreamAcquired =
  | { readonly ok: true; readonly supervisor: ConnectionSupervisor; readonly held: HeldLease }
  /** The API refused the lease (its stable problem code): not approved now, revoked, not leasable here. */
  | { readonly ok: false; readonly reason: 'lease_refused'; readonly code: string }
  /** Leased, but the server could not be reached (the supervisor's failure class), or the API could not answer. */
  | { readonly ok: false; readonly reason: 'upstream_unavailable'; readonly failureClass: string };

export interface UpstreamPoolOptions {
  readonly leases: LeaseApiClient;
  readonly held: HeldLeases;
  readonly logger: Logger;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly searchPath: string;
  /** Who children run as (CHILD_USER): never root. */
  readonly runAs: RunAsOptions;
  readonly closeGraceMs: number;
  readonly defaultStartupTimeoutMs: number;
  readonly callTimeoutMs: number;
  /** An upstream unused this long is closed (and its lease released) when its renewal comes, not renewed. */
  readonly idleCloseMs?: number;
  /**
   * An upstream's lists changed (list_changed seen and re-listed): its workspace's sessions are told. The pool
   * itself reports it to the API (catalog.refresh for the lease), so the catalog is discovered again.
   */
  readonly onListChanged?: (key: UpstreamKey) => void;
  /** An upstream notification that was dropped, by method (metrics). */
  readonly onDroppedNotification?: (method: string, reason: string) => void;
  readonly now?: () => number;
}

/** Renew when this share of the lease's remaining life has passed (and never later than 5 s before expiry). */
const RENEW_AT_SHARE = 2 / 3;
const RENEW_MARGIN_MS = 5_000;
const RENEW_RETRY_MS = 1_000;
const DEFAULT_IDLE_CLOSE_MS = 10 * 60_000;

class Upstream {
  private renewTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private closing: Promise<void> | null = null;
  private lastUsed: number;

  constructor(
    readonly key: UpstreamKey,
    readonly lease: IssuedLease,
    readonly held: HeldLease,
    readonly supervisor: ConnectionSupervisor,
    private readonly fresh: FreshLeaseTokens,
    private readonly pool: UpstreamPool,
    private readonly options: UpstreamPoolOptions,
  ) {
    this.lastUsed = this.now();
  }

  /** Called for every call that uses it: an upstream nobody uses is let go at its next renewal. */
  touch(): void {
    this.lastUsed = this.now();
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  scheduleRenewal(expiresAt: string): void {
    if (this.closed) return;
    const now = this.options.now?.() ?? Date.now();
    const remaining = Date.parse(expiresAt) - now;
    const delay = Math.max(0, Math.min(remaining * RENEW_AT_SHARE, remaining - RENEW_MARGIN_MS));
    this.renewTimer = setTimeout(() => void this.renew(expiresAt), delay);
    this.renewTimer.unref();
  }

  /** Closes (and releases) when the lease ends. */
  private closeAt(expiresAt: string): void {
    if (this.closed) return;
    this.renewTimer = setTimeout(() => void this.close(), Math.max(0, Date.parse(expiresAt) - this.now()));
    this.renewTimer.unref();
  }

  /** Every caller (a drop, the idle retirement, the pool's shutdown) awaits the same close, child exit included. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    if (this.renewTimer !== null) clearTimeout(this.renewTimer);
    this.options.held.forget(this.lease.id);
    await this.supervisor.close();
    // Released even after a drop (idempotent at the API); a failure leaves it to expire.
    await this.fresh.release().catch(() => undefined);
    await this.options.leases.release(this.lease.id).catch(() => undefined);
    this.pool.upstreamClosed(this);
  }

  private async renew(expiresAt: string): Promise<void> {
    if (this.closed || !this.held.live) return;
    if (this.now() - this.lastUsed >= (this.options.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS)) {
      // Idle: closing costs the next caller one lease and one connection; renewing would hold a child forever.
      this.pool.retire(this.key, this);
      return;
    }
    try {
      const renewed = await this.options.leases.renew(this.lease.id);
      if (renewed.ok && Date.parse(renewed.expiresAt) > Date.parse(expiresAt))
        return this.scheduleRenewal(renewed.expiresAt);
      if (renewed.ok) {
        // Re-decided but not lengthened (a lease that carries an access token ends with it, decision 0082; an
        // approval about to expire): renewing again would only ask again, ever faster, until it ends. New calls
        // lease again from now (a fresh lease, a fresh token); this connection ends its calls in flight and
        // closes when its lease ends.
        this.pool.supersede(this.key, this);
        this.closeAt(renewed.expiresAt);
        return;
      }
      this.options.logger.info(
        { leaseId: this.lease.id, serverName: this.key.server, code: renewed.code },
        'gateway upstream: renewal refused, connection closed',
      );
      this.pool.dropLease(this.lease.id);
    } catch (error) {
      const now = this.options.now?.() ?? Date.now();
      if (error instanceof LeaseApiError && Date.parse(expiresAt) - now > RENEW_RETRY_MS) {
        this.renewTimer = setTimeout(() => void this.renew(expiresAt), RENEW_RETRY_MS);
        this.renewTimer.unref();
        return;
      }
      this.pool.dropLease(this.lease.id);
    }
  }
}

export class UpstreamPool {
  private readonly upstreams = new Map<string, Promise<Upstream | UpstreamAcquired>>();
  /**
   * Every upstream not yet closed to its end: those in the map, those superseded (ending their calls in flight until
   * their lease ends) and those closing (their child in its grace). The shutdown awaits them all.
   */
  private readonly open = new Set<Upstream>();
  private closed = false;

  constructor(private readonly options: UpstreamPoolOptions) {}

  /** The live upstream for the key, connecting (and leasing) when there is none or its lease was dropped. */
  async acquire(key: UpstreamKey): Promise<UpstreamAcquired> {
    if (this.closed) return { ok: false, reason: 'upstream_unavailable', failureClass: 'fatal' };
    const id = keyOf(key);
    let entry = this.upstreams.get(id);
    if (entry !== undefined) {
      const current = await entry;
      const status = current instanceof Upstream ? current.supervisor.state.status : null;
      if (current instanceof Upstream && current.held.live && status !== 'closed' && status !== 'failed') {
        current.touch();
        return { ok: true, supervisor: current.supervisor, held: current.held };
      }
      // A connection that failed for good (its reconnect refused, a second 401) is closed and its leases
      // released: the next call leases again, and the API decides again.
      if (current instanceof Upstream && status === 'failed') await this.forget(id, current);
      else if (this.upstreams.get(id) === entry) this.upstreams.delete(id);
    }
    entry = this.upstreams.get(id);
    if (entry === undefined) {
      entry = this.connect(key);
      this.upstreams.set(id, entry);
    }
    const settled = await entry;
    if (settled instanceof Upstream) return { ok: true, supervisor: settled.supervisor, held: settled.held };
    // A failure is not kept: the next call asks again.
    if (this.upstreams.get(id) === entry) this.upstreams.delete(id);
    return settled;
  }

  /** Forgets the key's upstream if it is still this one, without closing it: the next call leases again. */
  supersede(key: UpstreamKey, upstream: Upstream): void {
    const id = keyOf(key);
    const entry = this.upstreams.get(id);
    if (entry === undefined) return;
    void entry.then((current) => {
      if (current !== upstream || this.upstreams.get(id) !== entry) return;
      // Its lease's drop still closes it (the listener set when it connected).
      this.upstreams.delete(id);
    });
  }

  /** An upstream closed to its end (its child gone): nothing more to await at shutdown. */
  upstreamClosed(upstream: Upstream): void {
    this.open.delete(upstream);
  }

  /** Closes an idle upstream and forgets it (the next call leases again). */
  retire(key: UpstreamKey, upstream: Upstream): void {
    void this.forget(keyOf(key), upstream);
  }

  /**
   * Closes the key's upstream if it is still the one that supervisor belongs to (its token was refused again
   * after the fresh lease: the connection has no retry left), so the next call leases again and the API decides
   * again (a refresh, or needs_sign_in).
   */
  async discard(key: UpstreamKey, supervisor: ConnectionSupervisor): Promise<void> {
    const id = keyOf(key);
    const entry = this.upstreams.get(id);
    if (entry === undefined) return;
    const current = await entry;
    if (current instanceof Upstream && current.supervisor === supervisor) await this.forget(id, current);
  }

  /** Drops one held lease (renewal refused): the registry's drop closes its connection. */
  dropLease(leaseId: string): void {
    this.options.held.drop('revoked', (lease) => lease.leaseId === leaseId);
  }

  get size(): number {
    return this.upstreams.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    const connecting = [...this.upstreams.values()];
    this.upstreams.clear();
    // Connections still being made join `open` when they settle.
    await Promise.allSettled(connecting);
    await Promise.all([...this.open].map((upstream) => upstream.close()));
  }

  private async connect(key: UpstreamKey): Promise<Upstream | UpstreamAcquired> {
    const { leases, held: registry } = this.options;
    const input = { workspaceId: key.workspaceId, serverName: key.server, principalUserId: key.principal };
    let issued;
    try {
      issued = await leases.issue(input);
    } catch {
      return { ok: false, reason: 'upstream_unavailable', failureClass: 'transient' };
    }
    if (!issued.ok) return { ok: false, reason: 'lease_refused', code: issued.code };
    const lease = issued.lease;
    const held = registry.hold({
      leaseId: lease.id,
      tenantId: lease.tenantId,
      workspaceId: lease.workspaceId,
      serverName: lease.serverName,
      approvalId: lease.approvalId,
      principalUserId: lease.principalUserId,
    });
    const fresh = freshLeaseTokens({
      api: leases,
      leases: registry,
      input,
      lease,
      held,
      onRefused: (refusal) =>
        this.options.logger.info(
          { leaseId: lease.id, serverName: lease.serverName, ...refusal },
          'gateway upstream: no fresh lease after a refused access token',
        ),
    });
    const supervisor = superviseAdmitted(lease.transport.transport, {
      serverId: lease.serverName,
      connect: {
        serverName: lease.serverName,
        clientInfo: this.options.clientInfo,
        defaultStartupTimeoutMs: this.options.defaultStartupTimeoutMs,
        searchPath: this.options.searchPath,
        ...this.options.runAs,
        closeGraceMs: this.options.closeGraceMs,
        stillAdmitted: () => held.live,
        freshAccessToken: fresh.freshAccessToken,
      },
      callTimeoutMs: this.options.callTimeoutMs,
      onEvent: (event) => {
        if (event.type !== 'catalog' || event.change !== 'refreshed') return;
        this.options.onListChanged?.(key);
        void this.reportListChanged(lease, held);
      },
      ...(this.options.onDroppedNotification === undefined
        ? {}
        : { onDroppedNotification: this.options.onDroppedNotification }),
    });
    const upstream = new Upstream(key, lease, held, supervisor, fresh, this, this.options);
    this.open.add(upstream);
    const id = keyOf(key);
    held.signal.addEventListener(
      'abort',
      () => {
        void this.forget(id, upstream);
      },
      { once: true },
    );
    const status = await supervisor.start();
    if (status !== 'ready' || !held.live) {
      const failureClass = held.live ? (supervisor.state.failure?.failureClass ?? 'fatal') : 'revoked';
      await upstream.close();
      return { ok: false, reason: 'upstream_unavailable', failureClass };
    }
    upstream.scheduleRenewal(lease.expiresAt);
    this.options.logger.info(
      { leaseId: lease.id, workspaceId: key.workspaceId, serverName: key.server },
      'gateway upstream connected',
    );
    return upstream;
  }

  /** Asks the API to rediscover the server (catalog.refresh on the lease); a failure waits for the sweep. */
  private async reportListChanged(lease: IssuedLease, held: HeldLease): Promise<void> {
    if (!held.live) return;
    const ids = { leaseId: lease.id, workspaceId: lease.workspaceId, serverName: lease.serverName };
    try {
      const reported = await this.options.leases.reportListChanged(
        { id: lease.id, workspaceId: lease.workspaceId, serverName: lease.serverName },
        held.signal,
      );
      if (!reported.ok)
        this.options.logger.info(
          { ...ids, code: reported.code },
          'gateway upstream: list_changed report refused',
        );
    } catch {
      this.options.logger.warn(
        ids,
        'gateway upstream: list_changed report failed, left to the periodic refresh',
      );
    }
  }

  private async forget(id: string, upstream: Upstream): Promise<void> {
    const entry = this.upstreams.get(id);
    if (entry !== undefined && (await entry) === upstream) this.upstreams.delete(id);
    await upstream.close();
  }
}

function keyOf(key: UpstreamKey): string {
  return `${key.workspaceId}\u0000${key.server}\u0000${key.principal ?? ''}`;
}
