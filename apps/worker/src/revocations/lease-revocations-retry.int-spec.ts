import { createLogger } from '@gatehouse/platform';
import {
  createTestDatabase,
  startDedicatedRedis,
  TEST_DATABASE_TIMEOUT_MS,
  type DedicatedRedis,
  type TestDatabase,
} from '@gatehouse/testing';
import type { CatalogRefreshOutcome } from '../catalog-refresh/catalog-refresh-processor.js';
import { startLedgerGate, type LedgerGate } from './test-support/ledger-gate.js';
import {
  processGroupAlive,
  startLeaseHolderScenario,
  type LeaseHolderScenario,
} from './test-support/lease-holder-scenario.js';

// The worker's revocation holder never gives up (decision 0129). Real API, real worker, real Postgres, a
// redis-server of this file's own (stopped and started again on its port; the shared one is never touched), and
// a gate of the test's between the worker and the API that can refuse every read of the revocation ledger.
// - A tenant's holder that cannot start (the ledger unreadable) keeps retrying; meanwhile the worker is not ready
//   and uses none of the tenant's leases; once the ledger answers it starts, the worker is ready, and a lease it
//   then holds is dropped by its revocation.
// - With Redis briefly away the holder is not live: not ready, a new lease is refused; the lease already running
//   is dropped once Redis is back and the holder has caught up from the ledger (revoked meanwhile), and the worker
//   is ready again.

jest.setTimeout(120_000);

const silent = createLogger({ name: 'lease-holder-retry-test', level: 'silent' });
/** Bound on waiting for something the worker does on its own (a retry, a reconnect): never an expected duration. */
const DEADLINE_MS = 30_000;

let testDb: TestDatabase;
let redis: DedicatedRedis;
let gate: LedgerGate | null = null;
let scenario: LeaseHolderScenario;

beforeAll(async () => {
  testDb = await createTestDatabase();
  redis = await startDedicatedRedis();
  scenario = await startLeaseHolderScenario({
    testDb,
    redisUrl: redis.url,
    logger: silent,
    workerApiUrl: async (apiUrl) => {
      gate = await startLedgerGate(apiUrl);
      return gate.url;
    },
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  // The gate first, as the window spec does: it cuts the worker's reads of the API (a long poll among them) at
  // once, so the worker's close does not wait on a read the gate would otherwise keep open.
  await gate?.close();
  await scenario?.close();
  await redis?.stop();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

function ledgerGate(): LedgerGate {
  if (gate === null) throw new Error('the ledger gate did not start');
  return gate;
}

type Readiness = { status: number; revocations: unknown };

async function readiness(): Promise<Readiness> {
  const response = await scenario.worker.http.inject({ method: 'GET', url: '/readyz' });
  const body = response.json<{ checks: Record<string, unknown> }>();
  return { status: response.statusCode, revocations: body.checks.revocations };
}

/**
 * /readyz once its revocations check reads `status` (and, for `up`, every other check too: the worker's own Redis
 * connection reconnects on its own schedule, and may come back after the holder's), or as it is at the deadline
 * (the assertion then says why).
 */
async function readinessOnce(status: 'up' | 'down'): Promise<Readiness> {
  const deadline = performance.now() + DEADLINE_MS;
  const reached = (current: Readiness): boolean =>
    (current.revocations as { status?: string } | undefined)?.status === status &&
    (status === 'down' || current.status === 200);
  let current = await readiness();
  while (!reached(current) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    current = await readiness();
  }
  return current;
}

/** A refresh under way, and whether it has ended yet (read without awaiting it). */
function track(outcome: Promise<CatalogRefreshOutcome>): {
  outcome: Promise<CatalogRefreshOutcome>;
  ended(): boolean;
} {
  let ended = false;
  const settled = outcome.finally(() => {
    ended = true;
  });
  return { outcome: settled, ended: () => ended };
}

describe('the worker’s revocation holder never gives up', () => {
  it('keeps retrying a holder that cannot start (not ready, the tenant’s leases refused) and starts once the ledger answers', async () => {
    // Nothing watched yet: nothing to vouch for.
    expect(await readiness()).toEqual({ status: 200, revocations: { status: 'up' } });

    const approved = await scenario.approve();
    ledgerGate().refuse(true);
    // The worker learns its tenant from this lease; the holder cannot read the ledger, so the lease is not used.
    await expect(scenario.refresh(approved)).resolves.toEqual({ outcome: 'dropped', reason: 'revalidate' });
    const down = await readinessOnce('down');
    expect(down).toEqual({ status: 503, revocations: { status: 'down', reason: 'failed' } });

    // It keeps trying on its own, with nothing else asking: two more refused reads of the ledger.
    const refusedSoFar = ledgerGate().refused;
    await ledgerGate().refusedAtLeast(refusedSoFar + 2, DEADLINE_MS);
    expect((await readiness()).revocations).toEqual({ status: 'down', reason: 'failed' });
    // A job of the tenant meanwhile is refused too, before any child runs.
    await expect(scenario.refresh(approved)).resolves.toEqual({ outcome: 'dropped', reason: 'revalidate' });

    ledgerGate().refuse(false);
    expect(await readinessOnce('up')).toEqual({ status: 200, revocations: { status: 'up' } });

    // Live from here: a lease is used, and its revocation drops it and closes its child.
    const refresh = track(scenario.refresh(approved));
    const child = await scenario.discoveryChild();
    expect(refresh.ended()).toBe(false);
    await scenario.revoke(approved.approvalId);
    await expect(refresh.outcome).resolves.toEqual({ outcome: 'dropped', reason: 'revoked' });
    expect(processGroupAlive(child.pgid)).toBe(false);
  });

  it('is not ready while Redis is away, refuses a new lease meanwhile, and drops a lease revoked meanwhile once back', async () => {
    const approved = await scenario.approve();
    const refresh = track(scenario.refresh(approved));
    const child = await scenario.discoveryChild();
    expect((await readiness()).revocations).toEqual({ status: 'up' });

    await redis.shutdown();
    // The holder learns of the lost stream from its socket's close event: await it saying so.
    expect((await readinessOnce('down')).revocations).toEqual({ status: 'down', reason: 'failed' });

    // A new lease while the holder cannot hear its tenant's stream is not used (no second child).
    await expect(scenario.refresh(approved)).resolves.toEqual({ outcome: 'dropped', reason: 'revalidate' });
    // The lease already held stays: the holder has its position and reads what it missed from the ledger.
    expect(refresh.ended()).toBe(false);

    // Revoked while the holder could not hear it (the API needs only Postgres to revoke).
    await scenario.revoke(approved.approvalId);

    await redis.restart();
    await expect(refresh.outcome).resolves.toEqual({ outcome: 'dropped', reason: 'revoked' });
    expect(processGroupAlive(child.pgid)).toBe(false);
    expect(await readinessOnce('up')).toEqual({ status: 200, revocations: { status: 'up' } });
  });
});
