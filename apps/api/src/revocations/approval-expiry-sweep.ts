import { Wakeup, type CoordinationLogger } from '@gatehouse/coordination';
import { claimUnrecordedExpiries, listTenantsWithUnrecordedExpiries, type Database } from '@gatehouse/db';
import type { AuditEventInput } from '../audit/audit-event';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditSafeFields } from '../audit/audit-safe-text';
import { appendLeaseChange } from './lease-change-event';

// The approval-expiry sweep (docs/decisions/0072-approval-expiry-sweep.md). An approval expires by time passing,
// which no use case sees, so nothing else would write its ledger event: each pass claims the expiries not yet
// recorded and, in the same transaction, writes `approval_expired` (which also revokes the leases standing on it,
// decision 0071) and an audit event. Claiming marks the approval (expiry_recorded_at, SKIP LOCKED), so a second
// pass, or the sweep of another API process running at the same moment, writes nothing for it.

export interface ApprovalExpirySweepOptions {
  readonly database: Database;
  /** Time between passes (default 15 s): how late an expiry's event may be. */
  readonly intervalMs?: number;
  readonly tenantsPerPass?: number;
  readonly batchSize?: number;
  readonly logger?: CoordinationLogger;
}

const SYSTEM_ACTOR: AuditEventInput['actor'] = { type: 'system', id: null, tokenKind: null };

export class ApprovalExpirySweep {
  private readonly wakeup = new Wakeup();
  private readonly abort = new AbortController();
  private loop: Promise<void> | null = null;

  constructor(private readonly options: ApprovalExpirySweepOptions) {}

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }

  /** One pass over every tenant with an unrecorded expiry. Returns how many expiries it recorded. */
  async pass(): Promise<number> {
    const { database } = this.options;
    const batch = this.options.batchSize ?? 200;
    const tenants = await database.lookup((query) =>
      listTenantsWithUnrecordedExpiries(query, this.options.tenantsPerPass ?? 100),
    );
    let recorded = 0;
    for (const tenantId of tenants) {
      for (;;) {
        const claimed = await database.withTenant(tenantId, async (tx) => {
          const expired = await claimUnrecordedExpiries(tx, batch);
          for (const approval of expired) {
            const leasesRevoked = await appendLeaseChange(tx, 'approval_expired', {
              approvalId: approval.id,
              workspaceId: approval.workspaceId,
              serverName: approval.serverName,
            });
            await appendAuditEvent(tx, {
              actor: SYSTEM_ACTOR,
              action: 'approvals.expired',
              target: { type: 'approval', id: approval.id },
              outcome: 'success',
              data: auditSafeFields({
                workspaceId: approval.workspaceId,
                serverName: approval.serverName,
                principalUserId: approval.principalUserId,
                leasesRevoked,
              }),
            });
          }
          return expired.length;
        });
        recorded += claimed;
        if (claimed < batch) break;
      }
    }
    return recorded;
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        await this.pass();
      } catch (error) {
        // Postgres away: nothing was claimed that did not commit with its event; the next pass tries again.
        this.options.logger?.warn(
          { err: error instanceof Error ? error.message : 'non-error thrown' },
          'approval expiry sweep failed',
        );
      }
      await this.wakeup.wait(this.options.intervalMs ?? 15_000, this.abort.signal);
    }
  }
}
