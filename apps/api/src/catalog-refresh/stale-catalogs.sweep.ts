import { listTenantIds, type Database } from '@gatehouse/db';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { ApiConfig } from '../config/api.config';
import { CLOCK, type Clock } from '../infrastructure/command-deps.tokens';
import { API_CONFIG, DATABASE, LOGGER } from '../infrastructure/infrastructure.tokens';
import { CatalogRefreshProducer, type RefreshTarget } from './catalog-refresh.producer';

/** Bound on the catalogs one tenant contributes to one tick; the next tick takes the rest. */
const MAX_DUE_PER_TENANT = 1_000;

export interface SweepSummary {
  readonly tenants: number;
  readonly due: number;
  readonly enqueued: number;
}

/** How often the sweep runs (ms; 0: off): the configured value, else 10 minutes, but off under NODE_ENV=test. */
export function catalogSweepEveryMs(config: Pick<ApiConfig, 'NODE_ENV' | 'CATALOG_SWEEP_EVERY_MS'>): number {
  return config.CATALOG_SWEEP_EVERY_MS ?? (config.NODE_ENV === 'test' ? 0 : 600_000);
}

/**
 * One tick of the periodic sweep (decision 0076): every catalog an approval holds for now (approved, not revoked,
 * not expired) that has no snapshot of the approved fingerprint submitted within CATALOG_REFRESH_MAX_AGE_MS is
 * handed to the producer, which decides it again, routes it and enqueues it (reason `scheduled`). It is what
 * makes a lost enqueue good: a trigger whose add never reached Redis is repaired by the next tick. Unroutable
 * servers are logged, not audited (they would be on every tick).
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
    for (const tenantId of tenantIds) {
      const targets = await this.dueIn(tenantId);
      due += targets.length;
      for (const target of targets) {
        const outcome = await this.producer.refresh(target, 'scheduled', { auditUnroutable: false });
        if (outcome.outcome === 'enqueued') enqueued += 1;
      }
    }
    const summary = { tenants: tenantIds.length, due, enqueued };
    this.logger.info(summary, 'catalog sweep done');
    return summary;
  }

  /** The tenant's approved catalogs without a recent snapshot of the approved fingerprint. */
  private async dueIn(tenantId: string): Promise<RefreshTarget[]> {
    const now = this.clock();
    const cutoff = new Date(now.getTime() - this.config.CATALOG_REFRESH_MAX_AGE_MS);
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
      const fresh = await tx.catalogSnapshot.findMany({
        where: { submittedAt: { gt: cutoff } },
        select: { workspaceId: true, serverName: true, principalKey: true, definitionFingerprint: true },
      });
      const freshKeys = new Set(
        fresh.map((row) =>
          keyOf(row.workspaceId, row.serverName, row.principalKey, row.definitionFingerprint),
        ),
      );
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
        if (freshKeys.has(key) || seen.has(key)) continue;
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
    });
  }
}

function keyOf(workspaceId: string, serverName: string, principalKey: string, fingerprint: string): string {
  return JSON.stringify([workspaceId, serverName, principalKey, fingerprint]);
}
