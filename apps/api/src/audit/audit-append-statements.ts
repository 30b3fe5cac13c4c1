import { randomUUID } from 'node:crypto';
import type { TenantReadQuery } from '@gatehouse/db';
import { GENESIS_HASH, canonicalJson, toHex } from './audit-chain-encoding';
import { noteAuditLink } from './audit-checkpoint-logger';
import type { AuditEventInput, AuditLink } from './audit-event';
import { assertAuditEventSafe } from './audit-event.guard';

// The tenant's audit chain appended by the database (decision 0100): Database.writeInTenant sends the head's lock,
// the statement that writes what is audited and appends its row (audit_append_v1 computes the link, decision
// 0010's encoding in SQL), and COMMIT in one round trip, so the head is held only inside Postgres.

/**
 * `lock` locks the tenant's head to commit, as its own statement BEFORE the ones it guards: in READ COMMITTED
 * each later statement then reads a snapshot taken after the lock, i.e. after the head's previous holder
 * committed (one statement that both waits for the lock and reads would read from before the wait). It is also
 * the lock order of lease writers (decision 0071). `create` makes a tenant's first head (seq 0, genesis hash), in
 * a transaction of its own: never on every unit, since an INSERT ... ON CONFLICT waits on the head's writer apart
 * from the row lock's queue and would let a later locker go first.
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
    name: 'audit-head/lock',
    text: `SELECT 1 FROM audit_heads
      WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid FOR UPDATE`,
    values: [],
  },
};

/** The SQLSTATE audit_append_v1 raises for a tenant without a head yet (no_data_found): create it, try again. */
export const NO_AUDIT_HEAD = 'P0002';

/**
 * The call `audit_append_v1(...)` appending `event` as the tenant's next link, its parameters numbered from
 * `$first` (for a statement that puts it beside its own), answering one row `(link_seq, link_hash)`. Refuses
 * anything secret-looking, as appendAuditEvent does. The data is hashed as the canonical JSON text sent here, and
 * stored from the same text, exactly as the JS append does.
 */
export function auditAppendCall(
  event: AuditEventInput,
  first: number,
): { readonly sql: string; readonly values: readonly unknown[] } {
  assertAuditEventSafe(event);
  const values = [
    randomUUID(),
    event.actor.type,
    event.actor.id,
    event.actor.tokenKind,
    event.action,
    event.target.type,
    event.target.id,
    event.outcome,
    canonicalJson(event.data ?? {}),
  ];
  const params = values.map((_, i) => `$${first + i}${i === 0 ? '::uuid' : '::text'}`);
  return { sql: `audit_append_v1(${params.join(', ')})`, values };
}

/** One row audit_append_v1 answered. */
export interface AppendedLinkRow {
  readonly link_seq: string;
  readonly link_hash: Uint8Array;
}

/** The link a committed append made, noted for the checkpoint log line (call after COMMIT only). */
export function noteAppendedLink(tenantId: string, row: AppendedLinkRow): AuditLink {
  const link: AuditLink = { seq: BigInt(row.link_seq), hash: toHex(row.link_hash) };
  noteAuditLink(tenantId, link);
  return link;
}
