import { performance } from 'node:perf_hooks';
import { createDatabase, type Database } from '@gatehouse/db';
import { createTestTenant } from '@gatehouse/testing';
import { appendAuditEvent } from '../apps/api/src/audit/append-audit-event';
import { VerifyAuditChainUseCase } from '../apps/api/src/audit/verify-audit-chain.use-case';
import type { TenantPrincipal } from '../apps/api/src/auth/principal';
import { fixed, percentile, type BenchContext, type BenchSection } from './bench-context';

// How much the per-tenant head lock serializes appends: N writers, each appending M events one transaction at a
// time, all into ONE tenant's chain versus each into ITS OWN tenant's chain. Each transaction does only the
// append, so the whole transaction is the locked section: the worst case for contention (in a real mutation
// the append is the last statement, so the lock is held for the append and the commit only).

const WRITERS = Number(process.env.BENCH_AUDIT_WRITERS ?? 8);
const APPENDS = Number(process.env.BENCH_AUDIT_APPENDS ?? 150);
const ROUNDS = 2;

interface RunResult {
  readonly perSecond: number;
  readonly latenciesMs: number[];
}

async function runWriters(
  db: Database,
  tenantOf: (writer: number) => string,
  appends: number,
): Promise<RunResult> {
  const latenciesMs: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      const tenantId = tenantOf(writer);
      for (let i = 0; i < appends; i += 1) {
        const t0 = performance.now();
        await db.withTenant(
          tenantId,
          (tx) =>
            appendAuditEvent(tx, {
              actor: { type: 'user', id: `bench-writer-${writer}`, tokenKind: null },
              action: 'workspaces.rename',
              target: { type: 'workspace', id: `ws-${i}` },
              outcome: 'success',
              data: { name: `name-${i}` },
            }),
          { maxWaitMs: 60_000, timeoutMs: 60_000 },
        );
        latenciesMs.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: (WRITERS * appends) / seconds, latenciesMs };
}

function principalOf(tenantId: string): TenantPrincipal {
  return {
    type: 'tenant',
    tenantId,
    tenantSlug: 'bench',
    userId: null,
    role: 'owner',
    via: 'session',
    sessionId: null,
    tokenId: null,
    scopes: ['audit:read'],
    workspaceIds: [],
    pool: null,
  };
}

export async function benchAuditAppend(ctx: BenchContext): Promise<BenchSection> {
  // One pooled connection per writer (plus slack), so writers wait on the lock, not on the pool.
  const db = createDatabase({ url: ctx.testDb.appUrl, poolMax: WRITERS + 2 });
  try {
    const shared = await createTestTenant(db);
    const own = await Promise.all(Array.from({ length: WRITERS }, () => createTestTenant(db)));
    const ownTenant = (writer: number) => (own[writer] as { id: string }).id;

    // Warm-up: connections, prepared statements, head rows.
    await runWriters(db, () => shared.id, 10);
    await runWriters(db, ownTenant, 10);

    const same: RunResult[] = [];
    const separate: RunResult[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      ctx.log(`audit-append: round ${round + 1}/${ROUNDS}`);
      same.push(await runWriters(db, () => shared.id, APPENDS));
      separate.push(await runWriters(db, ownTenant, APPENDS));
    }
    const mean = (runs: RunResult[]) => runs.reduce((sum, r) => sum + r.perSecond, 0) / runs.length;
    const all = (runs: RunResult[]) => runs.flatMap((r) => r.latenciesMs);
    const sameRate = mean(same);
    const separateRate = mean(separate);

    // The chain the contended writers built must still verify.
    const t0 = performance.now();
    const verdict = await new VerifyAuditChainUseCase(db).execute({
      principal: principalOf(shared.id),
      input: {},
    });
    const verifySeconds = (performance.now() - t0) / 1000;
    if (!verdict.ok)
      throw new Error(
        `audit-append: the contended chain does not verify (${verdict.problem} at ${verdict.firstBadSeq})`,
      );

    return {
      title: 'Audit append contention',
      method:
        `${WRITERS} concurrent writers, each appending ${APPENDS} events one transaction at a time (${ROUNDS} rounds, ` +
        "mean), all into one tenant's chain versus each into its own tenant's chain. Each transaction holds only the " +
        'append, so this is the worst case for the per-tenant head lock. Afterwards the contended chain is verified.',
      rows: [
        { label: 'same tenant: appends/s', value: fixed(sameRate) },
        {
          label: 'same tenant: latency p50 / p99 (ms)',
          value: `${fixed(percentile(all(same), 50), 2)} / ${fixed(percentile(all(same), 99), 2)}`,
        },
        { label: `${WRITERS} tenants: appends/s`, value: fixed(separateRate) },
        {
          label: `${WRITERS} tenants: latency p50 / p99 (ms)`,
          value: `${fixed(percentile(all(separate), 50), 2)} / ${fixed(percentile(all(separate), 99), 2)}`,
        },
        {
          label: 'verify: rows checked, rows/s',
          value: `${verdict.checkedRows}, ${fixed(verdict.checkedRows / verifySeconds, 0)}`,
        },
      ],
      ratio: { label: 'same tenant / separate tenants (append throughput)', value: sameRate / separateRate },
    };
  } finally {
    await db.close();
  }
}
