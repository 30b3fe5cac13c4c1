import { performance } from 'node:perf_hooks';
import { createLogger } from '@gatehouse/platform';
import { startLeaseHolderScenario } from '../apps/worker/src/revocations/test-support/lease-holder-scenario';
import { fixed, median, percentile, type BenchContext, type BenchSection } from './bench-context';

// Revocation -> holder closed (decision 0073): the real API on loopback (its relay woken by
// the commit, publishing over Redis) and the worker app as the holder (its catalog-refresh processor holding
// a lease on a stdio server that stays in discovery, its RevocationSubscriber on the tenant's stream). Each
// iteration approves the server, starts a refresh, waits for its child, revokes the approval over HTTP, and
// times until the refresh has ended `dropped` with the connection closed (the child's process group stopped).
// Baseline in the same run: the revoke request's own round trip (the API answering the revoke).

const REVOCATIONS = Math.max(100, Number(process.env.BENCH_REVOCATIONS ?? 100));
const WARMUP = 5;
const TARGET_P99_MS = 1_000;

export async function benchRevocationLatency(ctx: BenchContext): Promise<BenchSection> {
  const logger = createLogger({ name: 'bench', level: 'silent' });
  const scenario = await startLeaseHolderScenario({ testDb: ctx.testDb, redisUrl: ctx.redisUrl, logger });
  const closed: number[] = [];
  const answered: number[] = [];
  try {
    for (let i = 0; i < WARMUP + REVOCATIONS; i += 1) {
      const approved = await scenario.approve();
      const refresh = scenario.refresh(approved);
      await scenario.discoveryChild();
      const sent = performance.now();
      await scenario.revoke(approved.approvalId);
      const revokeAnswered = performance.now();
      const outcome = await refresh;
      const ended = performance.now();
      if (outcome.outcome !== 'dropped' || outcome.reason !== 'revoked')
        throw new Error(`revocation-latency: the refresh ended ${JSON.stringify(outcome)}`);
      if (i < WARMUP) continue;
      closed.push(ended - sent);
      answered.push(revokeAnswered - sent);
      if ((i - WARMUP + 1) % 25 === 0) ctx.log(`revocation-latency: ${i - WARMUP + 1}/${REVOCATIONS}`);
    }
  } finally {
    await scenario.close();
  }
  const p99 = percentile(closed, 99);
  return {
    title: 'Revocation to holder closed',
    method:
      `${REVOCATIONS} revocations (after ${WARMUP} warm-up ones), one at a time: the approval of a stdio server is ` +
      'revoked over HTTP (POST /v1/approvals/:id/revoke on the API from createApiApp on loopback, real Postgres and ' +
      'Redis) while the worker app (createWorkerApp, same process) holds a lease on it in a catalog refresh that ' +
      'stays in discovery; timed from sending the revoke until the refresh has ended `dropped` with its connection ' +
      "closed and the child's process group stopped (the ledger event committed with the revoke, the relay woken by " +
      'the commit publishing it, the RevocationSubscriber on the tenant stream delivering it, the held lease ' +
      'aborted, the supervisor closed). Baseline in the same run: the revoke request alone (sent to answered).',
    rows: [
      {
        label: 'revoke answered (baseline): p50 / p99 (ms)',
        value: `${fixed(median(answered))} / ${fixed(percentile(answered, 99))}`,
      },
      { label: 'revocation -> holder closed: p50 (ms)', value: fixed(median(closed)) },
      { label: 'revocation -> holder closed: p99 (ms)', value: fixed(p99) },
      { label: 'revocation -> holder closed: max (ms)', value: fixed(Math.max(...closed)) },
      {
        label: 'closed after the revoke answered: p50 (ms)',
        value: fixed(median(closed.map((c, i) => c - (answered[i] ?? 0)))),
      },
      {
        label: 'p99 closed / p99 revoke answered (the same-run baseline)',
        value: fixed(p99 / percentile(answered, 99), 2),
      },
      { label: 'target', value: `p99 under ${TARGET_P99_MS} ms` },
    ],
    ratio: {
      label: `p99 revocation -> holder closed / ${TARGET_P99_MS} ms (target < 1)`,
      value: p99 / TARGET_P99_MS,
    },
  };
}
