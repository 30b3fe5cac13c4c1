import type { TenantTx } from '../tenancy/prisma-client';

// The statements of the per-tenant audit hash chain (docs/architecture/data-and-rls.md): lock the head, create it on
// the tenant's first event, insert events and move the head onto the last one in one round trip, and read the head
// for verification. Hashing and what the events say stay with the API (apps/api/src/audit): these move bytes.

/** The tenant's chain head, locked FOR UPDATE until the transaction ends, with the database clock read under it. */
export interface LockedAuditHead {
  tenant_id: string;
  seq: bigint;
  hash: Uint8Array;
  now: Date;
}

/** One event as stored: the hashed fields, with `data` already the canonical JSON text the hash covers. */
export interface AuditEventRow {
  readonly id: string;
  readonly seq: bigint;
  readonly actorType: string;
  readonly actorId: string | null;
  readonly tokenKind: string | null;
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string | null;
  readonly outcome: string;
  readonly dataJson: string;
  readonly prevHash: Uint8Array;
  readonly hash: Uint8Array;
}

/**
 * Locks the current tenant's head row, creating it (seq 0, `genesisHash`) on the tenant's first event. The common
 * case is one statement; the insert runs only when the row is missing, and ON CONFLICT DO NOTHING lets two first
 * writers race safely (the loser waits for the winner's commit, then locks the committed row). Undefined when the
 * transaction has no tenant set.
 */
export async function lockAuditHead(
  tx: TenantTx,
  genesisHash: Uint8Array,
): Promise<LockedAuditHead | undefined> {
  const existing = await selectHeadForUpdate(tx);
  if (existing) return existing;
  await tx.$executeRaw`
    INSERT INTO audit_heads (tenant_id, seq, hash, updated_at)
    SELECT s.tenant_id, 0, ${genesisHash}, clock_timestamp()
      FROM (SELECT nullif(current_setting('app.tenant_id', true), '')::uuid AS tenant_id) AS s
     WHERE s.tenant_id IS NOT NULL
    ON CONFLICT (tenant_id) DO NOTHING`;
  return selectHeadForUpdate(tx);
}

async function selectHeadForUpdate(tx: TenantTx): Promise<LockedAuditHead | undefined> {
  const rows = await tx.$queryRaw<LockedAuditHead[]>`
    SELECT tenant_id::text AS tenant_id, seq, hash, clock_timestamp() AS now
      FROM audit_heads
     WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid
       FOR UPDATE`;
  return rows[0];
}

/**
 * Inserts the events (consecutive seqs after the locked head, each hash linking the previous) and moves the head
 * onto the last one: one statement. Every event is stamped with the head's `now`.
 */
export async function insertAuditEventsMovingHead(
  tx: TenantTx,
  head: LockedAuditHead,
  events: readonly AuditEventRow[],
): Promise<void> {
  const last = events[events.length - 1];
  if (last === undefined) return;
  if (events.length === 1) {
    await tx.$executeRaw`
      WITH appended AS (
        INSERT INTO audit_events
          (id, tenant_id, seq, occurred_at, actor_type, actor_id, token_kind, action, target_type, target_id,
           outcome, data, prev_hash, hash)
        VALUES
          (${last.id}::uuid, ${head.tenant_id}::uuid, ${last.seq}, ${head.now}, ${last.actorType},
           ${last.actorId}, ${last.tokenKind}, ${last.action}, ${last.targetType}, ${last.targetId},
           ${last.outcome}, ${last.dataJson}::jsonb, ${last.prevHash}, ${last.hash})
        RETURNING seq
      )
      UPDATE audit_heads
         SET seq = (SELECT seq FROM appended), hash = ${last.hash}, updated_at = ${head.now}
       WHERE tenant_id = ${head.tenant_id}::uuid`;
    return;
  }
  const rows = events.map((event) => ({
    id: event.id,
    seq: event.seq.toString(),
    actor_type: event.actorType,
    actor_id: event.actorId,
    token_kind: event.tokenKind,
    action: event.action,
    target_type: event.targetType,
    target_id: event.targetId,
    outcome: event.outcome,
    data: event.dataJson,
    prev_hash: Buffer.from(event.prevHash).toString('hex'),
    hash: Buffer.from(event.hash).toString('hex'),
  }));
  await tx.$executeRaw`
    WITH appended AS (
      INSERT INTO audit_events
        (id, tenant_id, seq, occurred_at, actor_type, actor_id, token_kind, action, target_type, target_id,
         outcome, data, prev_hash, hash)
      SELECT r.id, ${head.tenant_id}::uuid, r.seq, ${head.now}, r.actor_type, r.actor_id, r.token_kind, r.action,
             r.target_type, r.target_id, r.outcome, r.data::jsonb, decode(r.prev_hash, 'hex'), decode(r.hash, 'hex')
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
          id uuid, seq bigint, actor_type text, actor_id text, token_kind text, action text, target_type text,
          target_id text, outcome text, data text, prev_hash text, hash text)
      RETURNING seq
    )
    UPDATE audit_heads
       SET seq = (SELECT max(seq) FROM appended), hash = ${last.hash}, updated_at = ${head.now}
     WHERE tenant_id = ${head.tenant_id}::uuid`;
}

/** The head and the highest stored seq, read together (what verification starts from). */
export interface AuditHeadSnapshot {
  head_seq: bigint | null;
  head_hash: Uint8Array | null;
  max_seq: bigint | null;
}

export async function readAuditHeadSnapshot(
  tx: TenantTx,
  tenantId: string,
): Promise<AuditHeadSnapshot | undefined> {
  const rows = await tx.$queryRaw<AuditHeadSnapshot[]>`
    SELECT (SELECT seq FROM audit_heads WHERE tenant_id = ${tenantId}::uuid) AS head_seq,
           (SELECT hash FROM audit_heads WHERE tenant_id = ${tenantId}::uuid) AS head_hash,
           (SELECT max(seq) FROM audit_events WHERE tenant_id = ${tenantId}::uuid) AS max_seq`;
  return rows[0];
}
