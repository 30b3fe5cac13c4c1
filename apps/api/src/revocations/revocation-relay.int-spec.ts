import { randomBytes } from 'node:crypto';
import type { RevocationEvent } from '@gatehouse/contracts';
import {
  closeRedis,
  createRedisConnection,
  publishRevocations,
  RedisChannelMultiplexer,
  RevocationSubscriber,
  type RevalidateReason,
  type RevocationStreamRef,
} from '@gatehouse/coordination';
import {
  appendRevocationEvent,
  createDatabase,
  listUnpublishedRevocationEvents,
  sequenceRevocationEvents,
  type Database,
} from '@gatehouse/db';
import {
  createTestDatabase,
  createTestTenant,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
} from '@gatehouse/testing';
import { Redis } from 'ioredis';
import { revocationLedgerIdOf } from './revocation-ledger-identity';
import { readRevocationsPage } from './revocations-page-reader';
import { RevocationRelay } from './revocation-relay';

jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

// The whole path against the real Postgres and Redis: a change appends its event in its transaction, the relay
// publishes it after commit, a holder receives it, and catches up from the ledger when Redis did not bring it.

let testDb: TestDatabase;
let db: Database;
let redis: Redis;
let tenant: TestTenant;
const namespace = `gh-test-revocations-${randomBytes(6).toString('hex')}`;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 4 });
  redis = createRedisConnection({ url: testRedisUrl(), name: 'revocation-relay-test', purpose: 'command' });
  tenant = await createTestTenant(db);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await closeRedis(redis);
  await db?.close();
  await testDb?.drop();
});

/** A deferred value: the tests await events, never sleep for them. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

interface Holder {
  readonly subscriber: RevocationSubscriber;
  readonly connection: Redis;
  readonly events: RevocationEvent[];
  readonly revalidations: RevalidateReason[];
  /** Resolves with the first event received (from now on) that matches. */
  next(match: (event: RevocationEvent) => boolean): Promise<RevocationEvent>;
  /** Resolves on the next revalidation (from now on). */
  nextRevalidation(): Promise<RevalidateReason>;
  /** Stops the connection from reconnecting by itself (retryStrategy answers null), until reconnect(). */
  holdReconnects(hold: boolean): void;
}

async function startHolder(
  stream: RevocationStreamRef,
  onEvent: (event: RevocationEvent) => void = () => undefined,
): Promise<Holder> {
  let holding = false;
  // Our own connection (not the factory's) so the test decides when it may reconnect.
  const connection = new Redis(testRedisUrl(), {
    connectionName: `revocation-holder-${randomBytes(4).toString('hex')}`,
    maxRetriesPerRequest: null,
    retryStrategy: () => (holding ? null : 20),
  });
  const subscriptions = new RedisChannelMultiplexer(connection);
  const events: RevocationEvent[] = [];
  const revalidations: RevalidateReason[] = [];
  const waiters: Array<{
    match: (event: RevocationEvent) => boolean;
    resolve: (e: RevocationEvent) => void;
  }> = [];
  const revalidationWaiters: Array<(reason: RevalidateReason) => void> = [];
  const scope =
    stream.stream === 'tenant'
      ? ({ stream: 'tenant', tenantId: stream.tenantId } as const)
      : ({ stream: 'platform' } as const);
  const subscriber = new RevocationSubscriber({
    subscriptions,
    namespace,
    stream,
    readSince: (since, limit) => readRevocationsPage(db, scope, since, limit),
    onEvent: (event) => {
      events.push(event);
      for (const waiter of [...waiters]) {
        if (!waiter.match(event)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
      onEvent(event);
    },
    revalidateAll: (reason) => {
      revalidations.push(reason);
      for (const resolve of revalidationWaiters.splice(0)) resolve(reason);
    },
    pollIntervalMs: 60_000,
  });
  await subscriber.start();
  cleanups.push(async () => {
    await subscriber.close();
    await subscriptions.close();
    connection.disconnect();
  });
  return {
    subscriber,
    connection,
    events,
    revalidations,
    next: (match) => {
      const { promise, resolve } = deferred<RevocationEvent>();
      waiters.push({ match, resolve });
      return promise;
    },
    nextRevalidation: () => {
      const { promise, resolve } = deferred<RevalidateReason>();
      revalidationWaiters.push(resolve);
      return promise;
    },
    holdReconnects: (hold) => {
      holding = hold;
    },
  };
}

async function revokeSomething(serverName: string): Promise<void> {
  await db.withTenant(tenant.id, (tx) =>
    appendRevocationEvent(tx, { kind: 'approval_revoked', subject: { serverName } }),
  );
}

async function drainRelay(): Promise<void> {
  const relay = new RevocationRelay({ database: db, redis, namespace });
  await relay.pass();
}

describe('the relay and a holder', () => {
  it('publishes an event after the commit that appended it, woken by the commit (the tick is a minute)', async () => {
    const holder = await startHolder({ stream: 'tenant', tenantId: tenant.id });
    const platform = await startHolder({ stream: 'platform' });
    const relay = new RevocationRelay({ database: db, redis, namespace, tickMs: 60_000 });
    relay.start();
    cleanups.push(() => relay.stop());
    // Let the first (tick-independent) pass finish, so the wake-up below is what publishes.
    await relay.pass();
    const seen = holder.next((e) => e.subject.serverName === 'woken');
    const seenByPlatform = platform.next((e) => e.subject.serverName === 'woken');
    const before = holder.subscriber.lastSeq;
    await revokeSomething('woken');
    const event = await seen;
    expect(event).toMatchObject({ seq: before + 1, tenantId: tenant.id, kind: 'approval_revoked' });
    expect((await seenByPlatform).tenantId).toBe(tenant.id);
    expect(holder.revalidations).toEqual([]);
  });

  it('a rolled-back change publishes nothing', async () => {
    const holder = await startHolder({ stream: 'tenant', tenantId: tenant.id });
    await db
      .withTenant(tenant.id, async (tx) => {
        await appendRevocationEvent(tx, { kind: 'approval_revoked', subject: { serverName: 'never' } });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const after = holder.next((e) => e.subject.serverName === 'after');
    await revokeSomething('after');
    await drainRelay();
    await after;
    expect(holder.events.map((e) => e.subject.serverName)).toEqual(['after']);
  });

  it('catches up from the ledger after its subscriber connection was killed and a revocation was missed', async () => {
    const holder = await startHolder({ stream: 'tenant', tenantId: tenant.id });
    const id = await holder.connection.client('ID');
    const ended = new Promise<void>((resolve) => holder.connection.once('end', () => resolve()));
    holder.holdReconnects(true);
    const admin = createRedisConnection({
      url: testRedisUrl(),
      name: 'revocation-admin',
      purpose: 'command',
    });
    cleanups.push(() => closeRedis(admin));
    await admin.client('KILL', 'ID', String(id));
    await ended;

    // Revoked while the holder is away: the relay publishes it, and nobody on its channel hears it.
    await revokeSomething('missed');
    expect(await drainRelayCount()).toBeGreaterThan(0);
    expect(holder.events.map((e) => e.subject.serverName)).not.toContain('missed');

    const caughtUp = holder.next((e) => e.subject.serverName === 'missed');
    holder.holdReconnects(false);
    await holder.connection.connect();
    expect((await caughtUp).kind).toBe('approval_revoked');
    expect(holder.revalidations).toEqual([]);
  });

  it('revalidates everything on a gap in the live stream, and delivers the missing events from the ledger', async () => {
    const holder = await startHolder({ stream: 'tenant', tenantId: tenant.id });
    await drainRelay();
    const start = holder.subscriber.lastSeq;
    await revokeSomething('lost-1');
    await revokeSomething('lost-2');
    await db.lookup((query) => sequenceRevocationEvents(query));
    const rows = await db.lookup((query) => listUnpublishedRevocationEvents(query, 100));
    const second = rows.find((row) => (row.subject as { serverName?: string }).serverName === 'lost-2');
    if (!second || second.tenantSeq === null) throw new Error('the second event is not sequenced');
    // Only the second announcement reaches Redis: the first was "lost".
    const common = {
      ledger: await revocationLedgerIdOf(db),
      tenantId: second.tenantId,
      kind: second.kind,
      subject: second.subject,
      occurredAt: second.occurredAt,
    };
    const revalidated = holder.nextRevalidation();
    const both = holder.next((e) => e.subject.serverName === 'lost-2');
    await publishRevocations(redis, namespace, [
      { platform: { seq: second.seq, ...common }, tenant: { seq: second.tenantSeq, ...common } },
    ]);
    expect(await revalidated).toBe('gap');
    await both;
    expect(holder.events.map((e) => [e.seq, e.subject.serverName])).toEqual([
      [start + 1, 'lost-1'],
      [start + 2, 'lost-2'],
    ]);
  });

  it('revalidates everything on an event it cannot read, and on a handler error, and goes on', async () => {
    const holder = await startHolder({ stream: 'tenant', tenantId: tenant.id }, (event) => {
      if (event.subject.serverName === 'boom') throw new Error('handler failed');
    });
    await drainRelay();
    const unreadable = holder.nextRevalidation();
    await redis.publish(`${namespace}:revocations:tenant:${tenant.id}`, '{"seq": "not a position"');
    expect(await unreadable).toBe('unreadable_event');

    const handlerError = holder.nextRevalidation();
    const after = holder.next((e) => e.subject.serverName === 'after-boom');
    await revokeSomething('boom');
    await revokeSomething('after-boom');
    await drainRelay();
    expect(await handlerError).toBe('handler_error');
    await after;
    expect(holder.events.map((e) => e.subject.serverName)).toEqual(['boom', 'after-boom']);
  });

  it('publishing the same rows again (a relay that died before marking them) delivers nothing twice', async () => {
    const holder = await startHolder({ stream: 'tenant', tenantId: tenant.id });
    await revokeSomething('once');
    await db.lookup((query) => sequenceRevocationEvents(query));
    const rows = await db.lookup((query) => listUnpublishedRevocationEvents(query, 100));
    const ledger = await revocationLedgerIdOf(db);
    const announcements = rows.map((row) => {
      const common = {
        ledger,
        tenantId: row.tenantId,
        kind: row.kind,
        subject: row.subject,
        occurredAt: row.occurredAt,
      };
      return {
        platform: { seq: row.seq, ...common },
        tenant: row.tenantSeq === null ? null : { seq: row.tenantSeq, ...common },
      };
    });
    await publishRevocations(redis, namespace, announcements);
    const marker = holder.next((e) => e.subject.serverName === 'marker');
    await drainRelay(); // publishes 'once' a second time (it was never marked)
    await revokeSomething('marker');
    await drainRelay();
    await marker;
    expect(holder.events.map((e) => e.subject.serverName)).toEqual(['once', 'marker']);
  });

  it('ignores an announcement of another ledger on its channel and still delivers its own event at that position', async () => {
    // Another deployment sharing this Redis and REDIS_KEY_PREFIX (decision 0120): its positions are not ours.
    const holder = await startHolder({ stream: 'tenant', tenantId: tenant.id });
    await drainRelay();
    const page = await readRevocationsPage(db, { stream: 'tenant', tenantId: tenant.id }, 0, 1);
    const foreign = {
      seq: page.head + 1,
      ledger: 'f'.repeat(32),
      tenantId: tenant.id,
      kind: 'approval_revoked',
      subject: { serverName: 'foreign' },
      occurredAt: new Date().toISOString(),
    };
    await publishRevocations(redis, namespace, [{ platform: { ...foreign }, tenant: { ...foreign } }]);
    const own = holder.next((e) => e.subject.serverName === 'own');
    await revokeSomething('own');
    await drainRelay();
    expect((await own).seq).toBe(page.head + 1);
    expect(holder.events.map((e) => e.subject.serverName)).toEqual(['own']);
    // Ignored outright: not read as an unreadable event either (which would revalidate everything held).
    expect(holder.revalidations).toEqual([]);
  });
});

async function drainRelayCount(): Promise<number> {
  return new RevocationRelay({ database: db, redis, namespace }).pass();
}
