import { randomUUID } from 'node:crypto';
import {
  insertAuditEventsMovingHead,
  lockAuditHead,
  type AuditEventRow,
  type LockedAuditHead,
  type TenantTx,
} from '@gatehouse/db';
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

/** What the hash covers for one event appended at `seq` under the locked head. */
export function hashFieldsOf(head: LockedAuditHead, seq: bigint, event: AuditEventInput): AuditHashFields {
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
  await insertAuditEventsMovingHead(tx, head, [rowOf(fields, head.hash, hash)]);
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
  const rows: AuditEventRow[] = [];
  const links: AuditLink[] = [];
  for (const event of events) {
    seq += 1n;
    const fields = hashFieldsOf(head, seq, event);
    const hash = computeAuditHash(previousHash, fields);
    rows.push(rowOf(fields, previousHash, hash));
    links.push({ seq, hash: toHex(hash) });
    previousHash = hash;
  }
  await insertAuditEventsMovingHead(tx, head, rows);
  const last = links[links.length - 1] as AuditLink;
  noteAuditLink(head.tenant_id, last);
  return links;
}

/** The row as stored: `data` is the same canonical text the hash covers. */
function rowOf(fields: AuditHashFields, prevHash: Uint8Array, hash: Uint8Array): AuditEventRow {
  return {
    id: randomUUID(),
    seq: fields.seq,
    actorType: fields.actorType,
    actorId: fields.actorId,
    tokenKind: fields.tokenKind,
    action: fields.action,
    targetType: fields.targetType,
    targetId: fields.targetId,
    outcome: fields.outcome,
    dataJson: canonicalJson(fields.data),
    prevHash,
    hash,
  };
}

async function lockHead(tx: TenantTx): Promise<LockedAuditHead> {
  const head = await lockAuditHead(tx, GENESIS_HASH);
  if (!head) throw new Error('appendAuditEvent needs a transaction with a tenant set (Database.withTenant)');
  return head;
}
