import { createLogger } from '@gatehouse/platform';
import {
  createTestDatabase,
  TEST_DATABASE_TIMEOUT_MS,
  testRedisUrl,
  type TestDatabase,
} from '@gatehouse/testing';
import type { CatalogRefreshOutcome } from '../catalog-refresh/catalog-refresh-processor.js';
import { startLeaseAnswerGate, type LeaseAnswerGate } from './test-support/lease-answer-gate.js';
import {
  processGroupAlive,
  startLeaseHolderScenario,
  type LeaseHolderScenario,
} from './test-support/lease-holder-scenario.js';

// The window of a lease of an already watched tenant (decision 0129): the worker takes the ledger position, asks
// for the lease, and holds it once answered. A revocation of the lease that the tenant's running subscriber
// delivers in between finds nothing held; the lease must still be dropped before its job connects. The API's
// answer to the lease is held by a gate of the test's until the revocation has been delivered (another job's
// lease on the same approval is dropped by it: the proof the subscriber handled it).

jest.setTimeout(120_000);

const silent = createLogger({ name: 'lease-window-test', level: 'silent' });

let testDb: TestDatabase;
let gate: LeaseAnswerGate;
let scenario: LeaseHolderScenario;

beforeAll(async () => {
  testDb = await createTestDatabase();
  scenario = await startLeaseHolderScenario({
    testDb,
    redisUrl: testRedisUrl(),
    logger: silent,
    workerApiUrl: async (apiUrl) => {
      gate = await startLeaseAnswerGate(apiUrl);
      return gate.url;
    },
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await gate?.close();
  await scenario?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

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

describe('a lease revoked while its answer is on the way to a worker already watching its tenant', () => {
  it('is dropped as revoked before its job connects, though the subscriber delivered the revocation before the lease was held', async () => {
    const approved = await scenario.approve();
    // The tenant watched and live: a first job holds a lease on the same approval, its child in discovery.
    const first = track(scenario.refresh(approved));
    const firstChild = await scenario.discoveryChild();

    // The second job takes its ledger position and asks for its lease; the lease commits, its answer is held.
    const held = gate.holdNextLease();
    const second = track(scenario.refresh(approved));
    await held.answered;

    await scenario.revoke(approved.approvalId);
    // The running subscriber delivered the revocation: it dropped the first job's lease (and closed its child);
    // the second lease is not held yet, so nothing of it was dropped.
    await expect(first.outcome).resolves.toEqual({ outcome: 'dropped', reason: 'revoked' });
    expect(processGroupAlive(firstChild.pgid)).toBe(false);
    expect(second.ended()).toBe(false);

    held.open();
    const noChildComing = new AbortController();
    try {
      const childOrOutcome = await Promise.race([
        second.outcome,
        scenario.discoveryChild(noChildComing.signal).then((child) => ({ childStarted: child.pid })),
      ]);
      // Never connected on a revoked lease: dropped before the child was spawned.
      expect(childOrOutcome).toEqual({ outcome: 'dropped', reason: 'revoked' });
    } finally {
      noChildComing.abort();
    }
  });
});
