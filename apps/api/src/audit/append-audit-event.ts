import { randomUUID } from 'node:crypto';
import type { TenantTx } from '@gatehouse/db';
import {
  GENESIS_HASH,
  canonicalJson,
  computeAuditHash,
  toHex,
  type AuditHashFields,
} from './audit-chain-encoding';
import { noteAuditLink } from './audit-checkpoint-logger';
import type { AuditEventInput, AuditLink } from './audit-event';
import { assertAuditEventSafe } from './audit-event.guard';

export interface LockedHead {
  tenant_id: string;
  seq: bigint;
  hash: Uint8Array;
  now: Date;
}

/** What the hash covers for one event appended at `seq` under the locked head. */
export function hashFieldsOf(head: LockedHead, seq: bigint, event: AuditEventInput): AuditHashFields {
  return {
    tenantId: head.tenant_id,
    seq,
    // The database clock read after taking the lock: occurredAt then grows with seq. Truncated to the
    // millisecond by Date, which is exactly what timestamptz(3) stores, so verification rehashes the same text.
    occurredAt: head.now,
    actorType: event.actor.type,
    actorId: event.actor.id,
    tokenKind: event.actor.tokenKind,
    action: event.action,
    targetType: event.target.type,
    targetId: event.target.id,
    outcome: event.outcome,
    data: event.data ?? {},
  };
}

/**
 * Appends one event to the current tenant's audit chain, inside the caller's transaction (so the event commits
 * or rolls back with the mutation it records).
 *
 * Serialization is per tenant: the tenant's single `audit_heads` row is locked `FOR UPDATE` until the caller's
 * transaction ends, so appends of one tenant take turns and get gapless sequence numbers, while other tenants'
 * writers never touch that row. Call it as the LAST statement of a mutation: the lock is held from here to commit.
 *
 * Throws (a bug, never a client error) when the event carries anything secret-looking (AuditEventRejectedError)
 * or the transaction has no tenant.
 */
export async function appendAuditEvent(tx: TenantTx, event: AuditEventInput): Promise<AuditLink> {
  assertAuditEventSafe(event);
  const head = await lockHead(tx);
  const fields = hashFieldsOf(head, head.seq + 1n, event);
  const hash = computeAuditHash(head.hash, fields);
  // One round trip for both writes: the event row and the head moving onto it.
  await tx.$executeRaw`
    WITH appended AS (
      INSERT INTO audit_events
        (id, tenant_id, seq, occurred_at, actor_type, actor_id, token_kind, action, target_type, target_id,
         outcome, data, prev_hash, hash)
      VALUES
        (${randomUUID()}::uuid, ${fields.tenantId}::uuid, ${fields.seq}, ${fields.occurredAt}, ${fields.actorType},
         ${fields.actorId}, ${fields.tokenKind}, ${fields.action}, ${fields.targetType}, ${fields.targetId},
         ${fields.outcome}, ${canonicalJson(fields.data)}::jsonb, ${head.hash}, ${hash})
      RETURNING seq
    )
    UPDATE audit_heads
       SET seq = (SELECT seq FROM appended), hash = ${hash}, updated_at = ${fields.occurredAt}
     WHERE tenant_id = ${fields.tenantId}::uuid`;
  const link: AuditLink = { seq: fields.seq, hash: toHex(hash) };
  noteAuditLink(fields.tenantId, link);
  return link;
}

/**
 * Takes the tenant's audit head lock now, held to commit. Units of work that end or write lease rows take it
 * BEFORE any lease row (decision 0071): a ledger event ending leases (appendLeaseChange) and a renew, release or
 * submit of one of them then wait for each other in one order and never deadlock, whichever comes first. The
 * append at the end of the same transaction locks the same row again, without waiting.
 */
export async function lockAuditChain(tx: TenantTx): Promise<void> {
  await lockHead(tx);
}

/**
 * Appends several events to the current tenant's chain in one round trip after taking the head lock once: for an
 * event that fans out (one audit row per approval request opened across a tenant's workspaces). Same guarantees
 * as {@link appendAuditEvent}: the rows get consecutive sequence numbers in the given order, each hash links the
 * previous, and they commit or roll back with the caller's transaction.
 */
export async function appendAuditEvents(
  tx: TenantTx,
  events: readonly AuditEventInput[],
): Promise<AuditLink[]> {
  if (events.length === 0) return [];
  if (events.length === 1) return [await appendAuditEvent(tx, events[0] as AuditEventInput)];
  for (const event of events) assertAuditEventSafe(event);
  const head = await lockHead(tx);
  let previousHash = head.hash;
  let seq = head.seq;
  const rows: Record<string, unknown>[] = [];
  const links: AuditLink[] = [];
  for (const event of events) {
    seq += 1n;
    const fields = hashFieldsOf(head, seq, event);
    const hash = computeAuditHash(previousHash, fields);
    rows.push({
      id: randomUUID(),
      seq: seq.toString(),
      actor_type: fields.actorType,
      actor_id: fields.actorId,
      token_kind: fields.tokenKind,
      action: fields.action,
      target_type: fields.targetType,
      target_id: fields.targetId,
      outcome: fields.outcome,
      // The same canonical text the hash covers, stored as jsonb exactly as appendAuditEvent stores it.
      data: canonicalJson(fields.data),
      prev_hash: toHex(previousHash),
      hash: toHex(hash),
    });
    links.push({ seq, hash: toHex(hash) });
    previousHash = hash;
  }
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
       SET seq = (SELECT max(seq) FROM appended), hash = ${previousHash}, updated_at = ${head.now}
     WHERE tenant_id = ${head.tenant_id}::uuid`;
  const last = links[links.length - 1] as AuditLink;
  noteAuditLink(head.tenant_id, last);
  return links;
}

/**
 * Locks the tenant's head row, creating it (seq 0, genesis hash) on the tenant's first event. The common case is
 * one statement; the insert runs only when the row is missing, and ON CONFLICT DO NOTHING lets two first
 * writers race safely (the loser waits for the winner's commit, then locks the committed row).
 */
async function lockHead(tx: TenantTx): Promise<LockedHead> {
  const existing = await selectHeadForUpdate(tx);
  if (existing) return existing;
  await tx.$executeRaw`
    INSERT INTO audit_heads (tenant_id, seq, hash, updated_at)
    SELECT s.tenant_id, 0, ${GENESIS_HASH}, clock_timestamp()
      FROM (SELECT nullif(current_setting('app.tenant_id', true), '')::uuid AS tenant_id) AS s
     WHERE s.tenant_id IS NOT NULL
    ON CONFLICT (tenant_id) DO NOTHING`;
  const created = await selectHeadForUpdate(tx);
  if (!created)
    throw new Error('appendAuditEvent needs a transaction with a tenant set (Database.withTenant)');
  return created;
}

async function selectHeadForUpdate(tx: TenantTx): Promise<LockedHead | undefined> {
  const rows = await tx.$queryRaw<LockedHead[]>`
    SELECT tenant_id::text AS tenant_id, seq, hash, clock_timestamp() AS now
      FROM audit_heads
     WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid
       FOR UPDATE`;
  return rows[0];
}
