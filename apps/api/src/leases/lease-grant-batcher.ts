import type { Database, TenantReadQuery } from '@gatehouse/db';
import { AUDIT_HEAD, NO_AUDIT_HEAD } from '../audit/audit-append-statements';

/** Statements of one transaction at most: a bound on one batch's latency and on what a failure retries. */
const MAX_BATCH = 64;

interface Waiting {
  readonly statement: TenantReadQuery;
  readonly resolve: (rows: unknown[]) => void;
  readonly reject: (error: unknown) => void;
}

interface TenantQueue {
  readonly waiting: Waiting[];
  draining: boolean;
}

/**
 * Group commit for lease grants (decision 0100). Every grant of a tenant holds the tenant's audit head from its
 * lock to its COMMIT, and a COMMIT waits for the WAL flush: one lease per flush would cap a tenant's issuance at
 * what the disk syncs per second, whatever else is fast. So grants of one tenant that arrive while its previous
 * transaction is in flight go together in the next one: ONE round trip (Database.writeInTenant) of the head's
 * lock, then each grant's own statement in arrival order (each re-reads its approval under the lock and appends
 * its own audit row, the link computed by the database), then COMMIT. Each lease row still commits with its own
 * audit row; the chain gets them as consecutive links. Nothing is held between batches, and one tenant's batch
 * never waits on another tenant's.
 *
 * A batch that fails is retried grant by grant (each alone in its transaction), so one bad grant fails only its
 * own request. A tenant without an audit head yet gets one created, in its own transaction, and the batch again.
 */
export class LeaseGrantBatcher {
  private readonly queues = new Map<string, TenantQueue>();

  constructor(private readonly db: Pick<Database, 'writeInTenant'>) {}

  /** Runs `statement` after the tenant's audit head lock in a committed transaction; answers its rows. */
  grant(tenantId: string, statement: TenantReadQuery): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(tenantId);
      if (queue === undefined) {
        queue = { waiting: [], draining: false };
        this.queues.set(tenantId, queue);
      }
      queue.waiting.push({ statement, resolve, reject });
      if (!queue.draining) void this.drain(tenantId, queue);
    });
  }

  private async drain(tenantId: string, queue: TenantQueue): Promise<void> {
    queue.draining = true;
    try {
      while (queue.waiting.length > 0) await this.commit(tenantId, queue.waiting.splice(0, MAX_BATCH));
    } finally {
      queue.draining = false;
      this.queues.delete(tenantId);
    }
  }

  private async commit(tenantId: string, batch: readonly Waiting[]): Promise<void> {
    try {
      const answered = await this.withHead(tenantId, batch);
      batch.forEach((waiting, i) => waiting.resolve(answered[i] ?? []));
    } catch (error) {
      if (batch.length === 1) return (batch[0] as Waiting).reject(error);
      for (const waiting of batch) {
        try {
          const [rows] = await this.withHead(tenantId, [waiting]);
          waiting.resolve(rows ?? []);
        } catch (alone) {
          waiting.reject(alone);
        }
      }
    }
  }

  /** The batch after the head's lock, one round trip; the answers of the batch's statements, in order. */
  private async withHead(tenantId: string, batch: readonly Waiting[]): Promise<unknown[][]> {
    const send = async () =>
      (await this.db.writeInTenant(tenantId, [AUDIT_HEAD.lock, ...batch.map((w) => w.statement)])).slice(1);
    try {
      return await send();
    } catch (error) {
      if (!hasCode(error, NO_AUDIT_HEAD)) throw error;
      // The tenant's first audit event: its head in a transaction of its own, then the same batch again.
      await this.db.writeInTenant(tenantId, [AUDIT_HEAD.create]);
      return send();
    }
  }
}

function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
