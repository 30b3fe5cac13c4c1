import type { CatalogRefreshPayloadV2, ProbePayloadV1 } from '@gatehouse/contracts';
import { afterCommit, type Database, type TenantTx } from '@gatehouse/db';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { launchTargetOf } from '../effective-view/launch-target';
import { viewsAffectedBy, type ChangeScope } from '../effective-view/affected-views';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { AuditEventInput } from '../audit/audit-event';
import { auditSafeFields } from '../audit/audit-safe-text';
import { poolsOpenToTenant, type WorkerPools } from '../auth/pool-config';
import { EffectiveView } from '../effective-view/effective-view.service';
import { hostPolicyOfRow } from '../host-policy/host-policy-view';
import { CLOCK, WORKER_POOLS, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE, LOGGER } from '../infrastructure/infrastructure-tokens';
import { CatalogRefreshQueues } from './catalog-refresh-queues';
import { describePoolRefusal, routeCatalogRefresh, type PoolRefusal } from './catalog-refresh-routing';

/** One catalog to discover: a server of a workspace, for a principal or the workspace alone. */
export interface RefreshTarget {
  readonly tenantId: string;
  readonly workspaceId: string;
  readonly serverName: string;
  readonly principalUserId: string | null;
}

export type RefreshReason = CatalogRefreshPayloadV2['reason'];

export type RefreshOutcome =
  | {
      readonly outcome: 'enqueued' | 'collapsed';
      readonly pool: string;
      readonly definitionFingerprint: string;
      readonly jobId: string;
    }
  /** The workspace or the server is not in this view (anymore). */
  | { readonly outcome: 'not_found'; readonly what: 'workspace' | 'server' }
  /** The view lists the server, but not as something that could run. */
  | { readonly outcome: 'not_leasable'; readonly entryStatus: string }
  /** Activation does not approve it now: there is no catalog to discover until someone does. */
  | {
      readonly outcome: 'not_approved';
      readonly activationState: string;
      readonly reasons: readonly string[];
    }
  /** No pool open to the tenant may run it: not enqueued, and audited (`catalog.refresh.unroutable`). */
  | {
      readonly outcome: 'unroutable';
      readonly reason: 'no_pool_open' | 'no_pool_allows';
      readonly refusals: readonly PoolRefusal[];
    };

/** A decided and routed target: what its job carries besides the version and the reason. */
interface Routed {
  readonly outcome: 'routed';
  readonly job: Omit<CatalogRefreshPayloadV2, 'v' | 'reason'>;
}

export interface RefreshOptions {
  /** Who asked: a person or token (catalog.refresh), or the system (triggers, the sweep). */
  readonly actor?: AuditEventInput['actor'];
  /** Whether an unroutable server is audited; the sweep, which meets it on every tick, only logs it. */
  readonly auditUnroutable?: boolean;
}

const SYSTEM_ACTOR: AuditEventInput['actor'] = { type: 'system', id: null, tokenKind: null };

/** Bounds on what one change fans out to after commit; the sweep catches up on anything beyond them. */
const MAX_VIEWS_PER_CHANGE = 200;
const MAX_TARGETS_PER_CHANGE = 500;

/**
 * The API as the producer of catalog refresh jobs (decision 0076). A job is enqueued only for a server activation
 * approves now, on the queue of the first pool open to the tenant that may run it (the stdio or header-helper
 * authority a lease would apply), under the idempotency key over (workspace, server, fingerprint, principal), so
 * repeated triggers collapse into the job already waiting.
 *
 * Triggers call `afterCommit`: the enqueue runs once the change's transaction has committed, and never for one
 * that rolled back. It runs detached from the request (a slow or absent Redis never fails the change); a lost
 * enqueue (Redis away, the process killed between commit and add) is made good by the periodic sweep.
 */
@Injectable()
export class CatalogRefreshProducer implements BeforeApplicationShutdown {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(EffectiveView) private readonly views: EffectiveView,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
    @Inject(CatalogRefreshQueues) private readonly queues: CatalogRefreshQueues,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {}

  /** After `tx` commits, refresh this one catalog (an approval decided). */
  afterCommit(tx: TenantTx, target: RefreshTarget, reason: RefreshReason): void {
    afterCommit(tx, () => this.detach(() => this.refresh(target, reason)));
  }

  /**
   * After `tx` commits, refresh every approved catalog of the views a change touched (a variable set or unset, an
   * overlay cleared, trust given): the same views the approval workflow re-decides after that change.
   */
  afterCommitOfChange(
    tx: TenantTx,
    change: { readonly tenantId: string; readonly scope: ChangeScope; readonly authorUserId: string | null },
    reason: RefreshReason,
  ): void {
    afterCommit(tx, () => this.detach(() => this.refreshChange(change, reason)));
  }

  /** Resolves once every detached enqueue started so far has finished (shutdown; tests that await it). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.settled();
  }

  /** Decides, routes and enqueues one catalog refresh now. */
  async refresh(
    target: RefreshTarget,
    reason: RefreshReason,
    options: RefreshOptions = {},
  ): Promise<RefreshOutcome> {
    const planned = await this.plan(target, reason, options);
    if (planned.outcome !== 'routed') return planned;
    const { jobId, collapsed } = await this.queues.add({
      v: 2,
      ...planned.job,
      reason,
    });
    return this.enqueued(target, 'catalog refresh', planned, jobId, collapsed, reason);
  }

  /**
   * Decides, routes and enqueues one probe now (decision 0078): the same decision and the same routing as a
   * refresh, on the pool's `probe.<pool>` queue, under the probe's own key.
   */
  async probe(target: RefreshTarget, reason: ProbePayloadV1['reason']): Promise<RefreshOutcome> {
    const planned = await this.plan(target, reason, { auditUnroutable: false });
    if (planned.outcome !== 'routed') return planned;
    const { jobId, collapsed } = await this.queues.addProbe({ v: 1, ...planned.job, reason });
    return this.enqueued(target, 'probe', planned, jobId, collapsed, reason);
  }

  /** Activation now, then the pool: what a job for this target would carry, or why there is none. */
  private async plan(
    target: RefreshTarget,
    reason: string,
    options: RefreshOptions,
  ): Promise<Exclude<RefreshOutcome, { outcome: 'enqueued' | 'collapsed' }> | Routed> {
    const now = this.clock();
    const read = await this.db.withTenant(target.tenantId, async (tx) => {
      const tenant = await tx.tenant.findUnique({ where: { id: target.tenantId }, select: { slug: true } });
      const workspace = await tx.workspace.findUnique({ where: { id: target.workspaceId } });
      if (tenant === null || workspace === null) return null;
      const activation = await this.views.ofServer(tx, {
        tenantId: target.tenantId,
        workspace,
        userId: target.principalUserId,
        serverName: target.serverName,
        now,
      });
      const hostPolicy = await tx.hostPolicy.findUnique({ where: { tenantId: target.tenantId } });
      return { tenantSlug: tenant.slug, activation, tenantPolicy: hostPolicyOfRow(hostPolicy) };
    });
    if (read === null) return { outcome: 'not_found', what: 'workspace' };
    const { entry, decision, identity } = read.activation;
    if (entry === null || decision === null) return { outcome: 'not_found', what: 'server' };
    if (entry.status !== 'resolved') return { outcome: 'not_leasable', entryStatus: entry.status };
    if (decision.state !== 'approved' || identity === null)
      return { outcome: 'not_approved', activationState: decision.state, reasons: decision.reasons };

    const route = routeCatalogRefresh(
      launchTargetOf(entry),
      poolsOpenToTenant(this.pools, read.tenantSlug),
      read.tenantPolicy,
    );
    if (!route.ok) {
      const unroutable = { outcome: 'unroutable', reason: route.reason, refusals: route.refusals } as const;
      await this.reportUnroutable(target, reason, unroutable, options);
      return unroutable;
    }
    return {
      outcome: 'routed',
      job: {
        tenantId: target.tenantId,
        workspaceId: target.workspaceId,
        serverName: target.serverName,
        definitionFingerprint: identity.definitionFingerprint,
        principalUserId: target.principalUserId,
        pool: route.pool,
        requestedAt: now.toISOString(),
      },
    };
  }

  private enqueued(
    target: RefreshTarget,
    what: 'catalog refresh' | 'probe',
    planned: Routed,
    jobId: string,
    collapsed: boolean,
    reason: string,
  ): RefreshOutcome {
    const { pool, definitionFingerprint } = planned.job;
    this.logger.debug(
      { tenantId: target.tenantId, workspaceId: target.workspaceId, pool, reason, collapsed },
      `${what} enqueued`,
    );
    return { outcome: collapsed ? 'collapsed' : 'enqueued', pool, definitionFingerprint, jobId };
  }

  /** Every approved catalog of the views a change touched, refreshed one after the other. */
  private async refreshChange(
    change: { readonly tenantId: string; readonly scope: ChangeScope; readonly authorUserId: string | null },
    reason: RefreshReason,
  ): Promise<void> {
    const targets = await this.db.withTenant(change.tenantId, async (tx) => {
      const views = (await viewsAffectedBy(tx, change.scope, change.authorUserId)).slice(
        0,
        MAX_VIEWS_PER_CHANGE,
      );
      const context = await this.views.load(tx, {
        tenantId: change.tenantId,
        workspaceIds: views.map((view) => view.workspace.id),
        userIds: views.flatMap((view) => (view.userId === null ? [] : [view.userId])),
      });
      const now = this.clock();
      const found = new Map<string, RefreshTarget>();
      for (const view of views) {
        for (const evaluated of context.evaluate(view.workspace, view.userId, now).entries) {
          if (evaluated.decision.state !== 'approved') continue;
          // The catalog is the approval's: a workspace approval seen from a member's view is the workspace's
          // catalog, not a per-user one (which would be a second job for the same discovery).
          const approval = context.approvalById(evaluated.decision.matchedApprovalId);
          const principalUserId = approval?.principalUserId ?? null;
          const target = {
            tenantId: change.tenantId,
            workspaceId: view.workspace.id,
            serverName: evaluated.entry.name,
            principalUserId,
          };
          found.set(JSON.stringify([target.workspaceId, target.serverName, principalUserId]), target);
        }
      }
      return [...found.values()];
    });
    // Each is decided again on its own, now, as any trigger's.
    for (const target of targets.slice(0, MAX_TARGETS_PER_CHANGE)) await this.refresh(target, reason);
  }

  private async reportUnroutable(
    target: RefreshTarget,
    reason: string,
    unroutable: Extract<RefreshOutcome, { outcome: 'unroutable' }>,
    options: RefreshOptions,
  ): Promise<void> {
    const refusals = unroutable.refusals.map(describePoolRefusal);
    this.logger.info(
      {
        tenantId: target.tenantId,
        workspaceId: target.workspaceId,
        reason,
        unroutable: unroutable.reason,
        refusals,
      },
      'catalog refresh not enqueued: no pool may run the server',
    );
    if (options.auditUnroutable === false) return;
    await this.db.withTenant(target.tenantId, (tx) =>
      appendAuditEvent(tx, {
        actor: options.actor ?? SYSTEM_ACTOR,
        action: 'catalog.refresh.unroutable',
        target: { type: 'workspace', id: target.workspaceId },
        outcome: 'failure',
        data: {
          ...auditSafeFields({ serverName: target.serverName }),
          principalUserId: target.principalUserId,
          trigger: reason,
          reason: unroutable.reason,
          refusals,
        },
      }),
    );
  }

  /** Runs `work` detached from the caller, tracked for shutdown; a failure is logged (the sweep catches up). */
  private detach(work: () => Promise<unknown>): void {
    const running = work()
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'catalog refresh after commit failed; the sweep will catch up');
      })
      .finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
  }
}
