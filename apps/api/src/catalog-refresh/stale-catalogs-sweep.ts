import { listTenantIds, type Database } from '@gatehouse/db';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { ApiConfig } from '../config/api.config';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { API_CONFIG, DATABASE, LOGGER } from '../infrastructure/infrastructure-tokens';
import {
  CatalogRefreshProducer,
  type RefreshTarget,
} from '../catalog-refresh-queue/catalog-refresh-producer';

/** Bound on the catalogs one tenant contributes to one tick; the next tick takes the rest. */
const MAX_DUE_PER_TENANT = 1_000;

export interface SweepSummary {
  readonly tenants: number;
  /** Catalogs without a recent snapshot, and how many of them got a new job (others collapsed or were refused). */
  readonly due: number;
  readonly enqueued: number;
  /** Servers without a recent probe (decision 0078), and how many got a new probe job. */
  readonly probesDue: number;
  readonly probesEnqueued: number;
}

/** How often the sweep runs (ms; 0: off): the configured value, else 10 minutes, but off under NODE_ENV=test. */
export function catalogSweepEveryMs(config: Pick<ApiConfig, 'NODE_ENV' | 'CATALOG_SWEEP_EVERY_MS'>): number {
  return config.CATALOG_SWEEP_EVERY_MS ?? (config.NODE_ENV === 'test' ? 0 : 600_000);
}

type HoldingApproval = {
  readonly workspaceId: string;
  readonly serverName: string;
  readonly principalUserId: string | null;
  readonly definitionFingerprint: string;
};

type KeyedRow = Pick<HoldingApproval, 'workspaceId' | 'serverName' | 'definitionFingerprint'> & {
  readonly principalKey: string;
};

/**
 * One tick of the periodic sweep (decision 0076; probes decision 0078): every catalog an approval holds for now
 * (approved, not revoked, not expired) that has no snapshot of the approved fingerprint submitted within
 * CATALOG_REFRESH_MAX_AGE_MS is handed to the producer, which decides it again, routes it and enqueues it (reason
 * `scheduled`). It is what makes a lost enqueue good: a trigger whose add never reached Redis is repaired by the
 * next tick. Likewise every such server without a probe reported within PROBE_MAX_AGE_MS gets a probe job.
 * Unroutable servers are logged, not audited (they would be on every tick).
 */
@Injectable()
export class StaleCatalogsSweep {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CatalogRefreshProducer) private readonly producer: CatalogRefreshProducer,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {}

  async run(): Promise<SweepSummary> {
    const tenantIds = await listTenantIds(this.db);
    let due = 0;
    let enqueued = 0;
    let probesDue = 0;
    let probesEnqueued = 0;
    for (const tenantId of tenantIds) {
      const targets = await this.dueIn(tenantId);
      due += targets.refresh.length;
      probesDue += targets.probe.length;
      for (const target of targets.refresh) {
        const outcome = await this.producer.refresh(target, 'scheduled', { auditUnroutable: false });
        if (outcome.outcome === 'enqueued') enqueued += 1;
      }
      for (const target of targets.probe) {
        const outcome = await this.producer.probe(target, 'scheduled');
        if (outcome.outcome === 'enqueued') probesEnqueued += 1;
      }
    }
    const summary = { tenants: tenantIds.length, due, enqueued, probesDue, probesEnqueued };
    this.logger.info(summary, 'catalog sweep done');
    return summary;
  }

  /** The tenant's approved catalogs without a recent snapshot, and those without a recent probe. */
  private async dueIn(tenantId: string): Promise<{ refresh: RefreshTarget[]; probe: RefreshTarget[] }> {
    const now = this.clock();
    const snapshotCutoff = new Date(now.getTime() - this.config.CATALOG_REFRESH_MAX_AGE_MS);
    const probeCutoff = new Date(now.getTime() - this.config.PROBE_MAX_AGE_MS);
    const select = { workspaceId: true, serverName: true, principalKey: true, definitionFingerprint: true };
    return this.db.withTenant(tenantId, async (tx) => {
      const approvals = await tx.approval.findMany({
        where: {
          decision: 'approved',
          revokedAt: null,
          OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
        },
        select: { workspaceId: true, serverName: true, principalUserId: true, definitionFingerprint: true },
        orderBy: { decidedAt: 'desc' },
        take: MAX_DUE_PER_TENANT * 2,
      });
      const snapshots = await tx.catalogSnapshot.findMany({
        where: { submittedAt: { gt: snapshotCutoff } },
        select,
      });
      const probes = await tx.serverProbe.findMany({ where: { probedAt: { gt: probeCutoff } }, select });
      return {
        refresh: notIn(tenantId, approvals, keysOf(snapshots)),
        probe: notIn(tenantId, approvals, keysOf(probes)),
      };
    });
  }
}

function keyOf(workspaceId: string, serverName: string, principalKey: string, fingerprint: string): string {
  return JSON.stringify([workspaceId, serverName, principalKey, fingerprint]);
}

function keysOf(rows: readonly KeyedRow[]): Set<string> {
  return new Set(
    rows.map((row) => keyOf(row.workspaceId, row.serverName, row.principalKey, row.definitionFingerprint)),
  );
}

/** The approvals' catalogs (once each) whose key is not among `recent`, at most MAX_DUE_PER_TENANT. */
function notIn(
  tenantId: string,
  approvals: readonly HoldingApproval[],
  recent: ReadonlySet<string>,
): RefreshTarget[] {
  const seen = new Set<string>();
  const targets: RefreshTarget[] = [];
  for (const approval of approvals) {
    const principalKey = approval.principalUserId ?? 'workspace';
    const key = keyOf(
      approval.workspaceId,
      approval.serverName,
      principalKey,
      approval.definitionFingerprint,
    );
    if (recent.has(key) || seen.has(key)) continue;
    seen.add(key);
    targets.push({
      tenantId,
      workspaceId: approval.workspaceId,
      serverName: approval.serverName,
      principalUserId: approval.principalUserId,
    });
    if (targets.length >= MAX_DUE_PER_TENANT) break;
  }
  return targets;
}
