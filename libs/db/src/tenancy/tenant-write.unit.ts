import type { PoolClient } from 'pg';
import type { TenantReadQuery } from './tenant-read.pipeline';

/** A statement of a write unit's read step: sent at once, pipelined behind BEGIN and set_config. */
export type TenantStatement = <R>(query: TenantReadQuery) => Promise<R[]>;

/**
 * What a hot write path does in its transaction: `read` (locks, re-reads) with the statements it is given, then
 * the writes it decided on, which are sent with COMMIT in one round trip. Throwing from `read` rolls back.
 */
export type TenantWritePlan<T> = (
  statement: TenantStatement,
) => Promise<{ readonly value: T; readonly writes: readonly TenantReadQuery[] }>;

const BEGIN = 'BEGIN';
const SET_CONTEXT = "SELECT set_config('app.tenant_id', $1, true), set_config('app.user_id', $2, true)";

/**
 * Two round trips where a Prisma interactive transaction takes one per statement (measured in
 * bench/lease-issuance.bench.ts, decision 0093). The writes' answers are not returned: a write whose effect the
 * caller needs to know belongs in the read step. The caller releases the connection (closing it unless idle).
 */
export async function runTenantWrite<T>(
  client: PoolClient,
  tenantId: string,
  userId: string,
  plan: TenantWritePlan<T>,
): Promise<T> {
  const opening = Promise.all([client.query(BEGIN), client.query(SET_CONTEXT, [tenantId, userId])]);
  // Rejections are seen through the plan's own statements (they fail after a failed BEGIN) and awaited below.
  opening.catch(() => undefined);
  try {
    const statement: TenantStatement = async <R>(query: TenantReadQuery) =>
      (await client.query(query.text, [...query.values])).rows as R[];
    const { value, writes } = await plan(statement);
    await opening;
    const settled = await Promise.allSettled([
      ...writes.map((query) => client.query(query.text, [...query.values])),
      client.query('COMMIT'),
    ]);
    for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
    return value;
  } catch (error) {
    if (client.getTransactionStatus() !== 'I') await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
