import { randomUUID } from 'node:crypto';
import type { TenantReadQuery } from '@gatehouse/db';
import { GENESIS_HASH, canonicalJson, computeAuditHash, toHex } from './audit-chain.encoding';
import { hashFieldsOf, type LockedHead } from './append-audit-event';
import { noteAuditLink } from './audit-checkpoint.logger';
import type { AuditEventInput, AuditLink } from './audit-event';
import { assertAuditEventSafe } from './audit-event.guard';

// The tenant's audit chain appended through Database.writeInTenant (two pipelined round trips, decision 0093),
// the same rows and hash as appendAuditEvent: the head's lock in the unit's read step (before anything else it
// reads, the lock order of lease writers, decision 0071), the event row and the head's move among its writes.

/**
 * `lock` locks the tenant's head to commit and answers it (no row: the tenant has no head yet; run `create`, then
 * `lock` again). Never the create first on every unit: an INSERT ... ON CONFLICT waits on the head's writer apart
 * from the row lock's queue, and would let a later locker go first.
 */
export const AUDIT_HEAD: { readonly create: TenantReadQuery; readonly lock: TenantReadQuery } = {
  create: {
    text: `INSERT INTO audit_heads (tenant_id, seq, hash, updated_at)
      SELECT s.tenant_id, 0, $1, clock_timestamp()
        FROM (SELECT nullif(current_setting('app.tenant_id', true), '')::uuid AS tenant_id) AS s
       WHERE s.tenant_id IS NOT NULL
      ON CONFLICT (tenant_id) DO NOTHING`,
    values: [Buffer.from(GENESIS_HASH)],
  },
  lock: {
    text: `SELECT tenant_id::text AS tenant_id, seq::text AS seq, hash, clock_timestamp() AS now
      FROM audit_heads WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid FOR UPDATE`,
    values: [],
  },
};

interface RawHead {
  readonly tenant_id: string;
  readonly seq: string;
  readonly hash: Uint8Array;
  readonly now: Date;
}

/** The head AUDIT_HEAD.lock answered; null when the tenant has none yet. */
export function lockedHeadOf(rows: readonly RawHead[]): LockedHead | null {
  const row = rows[0];
  if (row === undefined) return null;
  return { tenant_id: row.tenant_id, seq: BigInt(row.seq), hash: row.hash, now: row.now };
}

/**
 * The statement appending `event` as the next link of the locked head (one per unit: the head it was locked at
 * moves with it), and that link. Refuses anything secret-looking, as appendAuditEvent does.
 */
export function auditAppendStatement(
  head: LockedHead,
  event: AuditEventInput,
): { readonly query: TenantReadQuery; readonly link: AuditLink; readonly note: () => void } {
  assertAuditEventSafe(event);
  const fields = hashFieldsOf(head, head.seq + 1n, event);
  const hash = Buffer.from(computeAuditHash(head.hash, fields));
  const link: AuditLink = { seq: fields.seq, hash: toHex(hash) };
  return {
    query: {
      text: `WITH appended AS (
        INSERT INTO audit_events
          (id, tenant_id, seq, occurred_at, actor_type, actor_id, token_kind, action, target_type, target_id,
           outcome, data, prev_hash, hash)
        VALUES ($1::uuid, $2::uuid, $3::bigint, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14)
        RETURNING seq
      )
      UPDATE audit_heads SET seq = (SELECT seq FROM appended), hash = $14, updated_at = $4
       WHERE tenant_id = $2::uuid`,
      values: [
        randomUUID(),
        fields.tenantId,
        fields.seq.toString(),
        fields.occurredAt,
        fields.actorType,
        fields.actorId,
        fields.tokenKind,
        fields.action,
        fields.targetType,
        fields.targetId,
        fields.outcome,
        canonicalJson(fields.data),
        Buffer.from(head.hash),
        hash,
      ],
    },
    link,
    note: () => noteAuditLink(fields.tenantId, link),
  };
}
