import {
  revocationKind,
  revocationSubject,
  type RevocationEvent,
  type RevocationKind,
  type RevocationStream,
  type RevocationSubject,
} from '@gatehouse/contracts';
import type { Database, LookupQuery } from '../database';
import { afterCommit } from '../tenancy/after-commit';
import type { TenantTx } from '../tenancy/prisma-client';
import { contextId } from '../tenancy/tenant-context';

// The revocation ledger (docs/decisions/0052-revocation-ledger.md): appended inside the caller's transaction,
// given gapless positions after commit (sequenceRevocationEvents), published by the API's relay and read by
// holders through `GET /v1/revocations?since=`.

export interface RevocationEventInput {
  readonly kind: RevocationKind;
  readonly subject?: RevocationSubject;
}

// Wakes the relays of this process after a commit that appended events (database.ts registers them).
const appendListeners = new Set<() => void>();

/** @internal Database.onRevocationsAppended. */
export function addRevocationAppendListener(listener: () => void): () => void {
  appendListeners.add(listener);
  return () => appendListeners.delete(listener);
}

function notifyAppendListeners(): void {
  for (const listener of [...appendListeners]) listener();
}

/**
 * Appends one event in the caller's unit of work (withTenant: the row is the tenant's). It exists exactly when
 * the change beside it commits; after the commit the relays of this process are woken. A kind or subject that
 * does not match the contract is a bug in the caller: it throws (and so rolls the change back with it).
 */
export async function appendRevocationEvent(tx: TenantTx, event: RevocationEventInput): Promise<void> {
  const kind = revocationKind.parse(event.kind);
  const subject = revocationSubject.parse(event.subject ?? {});
  // tenant_id from the transaction's own context: RLS refuses any other, and withoutTenant has none.
  const rows = await tx.$queryRaw<{ tenant_id: string | null }[]>`
    SELECT nullif(current_setting('app.tenant_id', true), '') AS tenant_id`;
  const tenantId = rows[0]?.tenant_id;
  if (!tenantId) throw new Error('appendRevocationEvent needs a tenant unit of work');
  await tx.revocationEvent.create({ data: { tenantId, kind, subject } });
  afterCommit(tx, notifyAppendListeners);
}

// Positions come back as bigint through Prisma and as strings through pg (int8); either converts exactly while
// below 2^53, which a ledger never reaches.
interface LedgerRow {
  seq: bigint | string | null;
  tenant_seq: bigint | string | null;
  tenant_id: string | null;
  kind: string;
  subject: unknown;
  created_at: Date | string;
}

/** A row as stored, not yet checked against the contract (an old or hand-written row may not fit it). */
export interface StoredRevocationEvent {
  readonly seq: number;
  readonly tenantSeq: number | null;
  readonly tenantId: string | null;
  readonly kind: string;
  readonly subject: unknown;
  readonly occurredAt: string;
}

function toStored(row: LedgerRow): StoredRevocationEvent {
  return {
    seq: Number(row.seq ?? 0),
    tenantSeq: row.tenant_seq === null ? null : Number(row.tenant_seq),
    tenantId: row.tenant_id,
    kind: row.kind,
    subject: row.subject,
    occurredAt: new Date(row.created_at).toISOString(),
  };
}

/** Gives committed, unsequenced events their positions (at most `limit`); returns how many. Any process may. */
export async function sequenceRevocationEvents(query: LookupQuery, limit = 500): Promise<number> {
  const rows = await query<{ n: number }>`SELECT gh_revocations_sequence(${limit}::int) AS n`;
  return rows[0]?.n ?? 0;
}

/** Sequenced events no relay has marked published, oldest position first. */
export async function listUnpublishedRevocationEvents(
  query: LookupQuery,
  limit = 500,
): Promise<StoredRevocationEvent[]> {
  const rows = await query<LedgerRow>`SELECT * FROM gh_revocations_unpublished(${limit}::int)`;
  return rows.map(toStored);
}

export async function markRevocationEventsPublished(query: LookupQuery, throughSeq: number): Promise<number> {
  const rows = await query<{ n: number }>`SELECT gh_revocations_mark_published(${throughSeq}::bigint) AS n`;
  return rows[0]?.n ?? 0;
}

export type RevocationScope =
  | { readonly stream: Extract<RevocationStream, 'tenant'>; readonly tenantId: string }
  | { readonly stream: Extract<RevocationStream, 'platform'> };

export interface RevocationReadPage {
  readonly rows: StoredRevocationEvent[];
  /** The stream's newest position when read (0 when empty). */
  readonly head: number;
}

/**
 * Events after `since` in one stream, oldest first, with the stream's head. A tenant stream is read under that
 * tenant's row-level security, in one round trip (positions are tenant_seq); the platform stream through the
 * definer functions (every tenant's rows and the platform's own).
 */
export async function readRevocationEventsSince(
  db: Pick<Database, 'readInTenant' | 'lookup'>,
  scope: RevocationScope,
  since: number,
  limit: number,
): Promise<RevocationReadPage> {
  if (scope.stream === 'tenant') {
    const tenantId = contextId('tenantId', scope.tenantId);
    const rows = await db.readInTenant<LedgerRow & { head: string | bigint }>(tenantId, {
      text: `SELECT e.tenant_seq AS seq, e.tenant_seq, e.tenant_id, e.kind, e.subject, e.created_at,
                    h.head
               FROM (SELECT coalesce(max(tenant_seq), 0) AS head FROM revocation_events) AS h
               LEFT JOIN LATERAL (
                 SELECT * FROM revocation_events
                  WHERE tenant_seq > $1::bigint
                  ORDER BY tenant_seq
                  LIMIT $2::int
               ) AS e ON true
              ORDER BY e.tenant_seq`,
      values: [since, limit],
    });
    const head = Number(rows[0]?.head ?? 0);
    return { rows: rows.filter((row) => row.seq !== null).map(toStored), head };
  }
  return db.lookup(async (query) => {
    const rows = await query<LedgerRow>`SELECT * FROM gh_revocations_since(${since}::bigint, ${limit}::int)`;
    const head = await query<{ head: bigint }>`SELECT gh_revocations_head() AS head`;
    return { rows: rows.map(toStored), head: Number(head[0]?.head ?? 0) };
  });
}

/** Converts a stored row to the wire event of a stream; null when the row does not fit the contract. */
export function toRevocationEvent(
  row: StoredRevocationEvent,
  stream: RevocationStream,
): RevocationEvent | null {
  const seq = stream === 'tenant' ? row.tenantSeq : row.seq;
  if (seq === null) return null;
  const kind = revocationKind.safeParse(row.kind);
  const subject = revocationSubject.safeParse(row.subject);
  if (!kind.success || !subject.success) return null;
  return { seq, tenantId: row.tenantId, kind: kind.data, subject: subject.data, occurredAt: row.occurredAt };
}

/**
 * The identity of the ledger this database keeps (decision 0120): a digest of the cluster's system identifier and
 * the database's oid, so another cluster, another database on the same cluster, or this one dropped and created
 * again is another ledger. A digest, so holders learn nothing of the infrastructure from it.
 */
export async function readRevocationLedgerId(query: LookupQuery): Promise<string> {
  const rows = await query<{ id: string }>`
    SELECT substr(encode(sha256(convert_to(s.system_identifier::text || '/' || d.oid::text, 'UTF8')), 'hex'), 1, 32)
           AS id
      FROM pg_control_system() AS s, pg_database AS d
     WHERE d.datname = current_database()`;
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('the revocation ledger has no identity');
  return id;
}
