import { createTestRedisPrefix, testRedisUrl } from '@gatehouse/testing';
import type { RevocationEvent } from '@gatehouse/contracts';
import { once } from 'node:events';
import { RedisChannelMultiplexer } from './channel-multiplexer';
import { revocationChannel } from './revocation-channel';
import { RevocationSubscriber, type RevalidateReason } from './revocation-subscriber';
import { RedisTestHarness } from './test-support/redis-test.harness';

// RevocationSubscriber against the real Redis, with the ledger read (`readSince`, the holder's HTTP catch-up in
// production) served from a list the test controls, so the test decides when a read answers.

const harness = new RedisTestHarness(testRedisUrl(), createTestRedisPrefix().replace(/:$/, ''));
const { namespace } = harness;
const publisher = harness.connection();
const tenantId = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const stream = { stream: 'tenant', tenantId } as const;
/** The ledger the pages below are of (decision 0120): announcements name it too. */
const LEDGER = 'a'.repeat(32);

afterAll(() => harness.cleanup());

function event(seq: number): RevocationEvent {
  return {
    seq,
    tenantId,
    kind: 'approval_revoked',
    subject: { serverName: `server-${seq}` },
    occurredAt: '2026-12-01T12:00:00.000Z',
  };
}

/** The ledger as `GET /v1/revocations` answers it, from `events`. */
function pageOf(events: readonly RevocationEvent[], since: number, limit: number) {
  const after = events.filter((e) => e.seq > since).slice(0, limit);
  const head = events.at(-1)?.seq ?? 0;
  return {
    stream: 'tenant',
    ledger: LEDGER,
    events: after,
    next: after.at(-1)?.seq ?? since,
    head,
    hasMore: after.length === limit,
  };
}

describe('RevocationSubscriber', () => {
  it('holds live announcements that arrive while it is still positioning, and delivers them after, in order', async () => {
    const ledger = [event(1), event(2), event(3)];
    let releaseFirstRead: () => void = () => undefined;
    const firstReadMayAnswer = new Promise<void>((resolve) => (releaseFirstRead = resolve));
    let firstReadAsked: () => void = () => undefined;
    const firstReadStarted = new Promise<void>((resolve) => (firstReadAsked = resolve));
    let reads = 0;
    const delivered: number[] = [];
    const revalidations: RevalidateReason[] = [];
    const connection = harness.connection('subscriber');
    // Connected first, so no resubscription's catch-up runs during the test: only the start and the message.
    if (connection.status !== 'ready') await once(connection, 'ready');
    const subscriptions = new RedisChannelMultiplexer(connection);
    const subscriber = new RevocationSubscriber({
      subscriptions,
      namespace,
      stream,
      since: 2,
      readSince: async (since, limit) => {
        reads += 1;
        if (reads === 1) {
          // Answers what the ledger held when asked, but only once the test lets it.
          const page = pageOf(ledger, since, limit);
          firstReadAsked();
          await firstReadMayAnswer;
          return page;
        }
        return pageOf(ledger, since, limit);
      },
      onEvent: (e) => {
        delivered.push(e.seq);
      },
      revalidateAll: (reason) => {
        revalidations.push(reason);
      },
      pollIntervalMs: 60_000,
    });
    const started = subscriber.start();
    await firstReadStarted;

    // Committed and announced while the subscriber's first ledger read is under way.
    ledger.push(event(4));
    const heard = once(connection, 'message');
    await publisher.publish(
      revocationChannel(namespace, stream),
      JSON.stringify({ ...event(4), ledger: LEDGER }),
    );
    await heard;

    releaseFirstRead();
    await started;
    await subscriber.idle();
    expect(delivered).toEqual([3, 4]);
    expect(revalidations).toEqual([]);
    expect(subscriber.lastSeq).toBe(4);
    await subscriber.close();
    await subscriptions.close();
  });

  it('positioned at the head, does not mistake an announcement that arrives during that read for a gap', async () => {
    const ledger = [event(1), event(2), event(3)];
    let releaseFirstRead: () => void = () => undefined;
    const firstReadMayAnswer = new Promise<void>((resolve) => (releaseFirstRead = resolve));
    let firstReadAsked: () => void = () => undefined;
    const firstReadStarted = new Promise<void>((resolve) => (firstReadAsked = resolve));
    let reads = 0;
    const delivered: number[] = [];
    const revalidations: RevalidateReason[] = [];
    const connection = harness.connection('subscriber');
    if (connection.status !== 'ready') await once(connection, 'ready');
    const subscriptions = new RedisChannelMultiplexer(connection);
    const subscriber = new RevocationSubscriber({
      subscriptions,
      namespace,
      stream,
      readSince: async (since, limit) => {
        reads += 1;
        const page = pageOf(ledger, since, limit);
        if (reads === 1) {
          firstReadAsked();
          await firstReadMayAnswer;
        }
        return page;
      },
      onEvent: (e) => {
        delivered.push(e.seq);
      },
      revalidateAll: (reason) => {
        revalidations.push(reason);
      },
      pollIntervalMs: 60_000,
    });
    const started = subscriber.start();
    await firstReadStarted;
    ledger.push(event(4));
    const heard = once(connection, 'message');
    await publisher.publish(
      revocationChannel(namespace, stream),
      JSON.stringify({ ...event(4), ledger: LEDGER }),
    );
    await heard;

    releaseFirstRead();
    await started;
    await subscriber.idle();
    // Positioned at 3 (the head when it asked), then the announcement of 4: nothing before 3 replayed.
    expect(delivered).toEqual([4]);
    expect(revalidations).toEqual([]);
    await subscriber.close();
    await subscriptions.close();
  });
  it("ignores another ledger's announcement at its next position, and starts over when its own pages change ledger", async () => {
    const ledger = [event(1), event(2)];
    let pagesOf = LEDGER;
    const delivered: number[] = [];
    const revalidations: RevalidateReason[] = [];
    const connection = harness.connection('subscriber');
    if (connection.status !== 'ready') await once(connection, 'ready');
    const subscriptions = new RedisChannelMultiplexer(connection);
    const subscriber = new RevocationSubscriber({
      subscriptions,
      namespace,
      stream,
      since: 1,
      readSince: (since, limit) => Promise.resolve({ ...pageOf(ledger, since, limit), ledger: pagesOf }),
      onEvent: (e) => {
        delivered.push(e.seq);
      },
      revalidateAll: (reason) => {
        revalidations.push(reason);
      },
      pollIntervalMs: 60_000,
    });
    await subscriber.start();
    await subscriber.idle();
    expect(delivered).toEqual([2]);

    // Another deployment on this namespace announces its 3: not this ledger's 3.
    const heard = once(connection, 'message');
    await publisher.publish(
      revocationChannel(namespace, stream),
      JSON.stringify({ ...event(3), ledger: 'b'.repeat(32) }),
    );
    await heard;
    await subscriber.idle();
    expect(subscriber.lastSeq).toBe(2);
    expect(revalidations).toEqual([]);

    // This ledger's own 3 is delivered at that position.
    ledger.push(event(3));
    const ownHeard = once(connection, 'message');
    await publisher.publish(
      revocationChannel(namespace, stream),
      JSON.stringify({ ...event(3), ledger: LEDGER }),
    );
    await ownHeard;
    await subscriber.idle();
    expect(delivered).toEqual([2, 3]);

    // The API now keeps another ledger (a replaced database): everything held is re-checked, the position
    // restarts at that ledger's head, and nothing of it is replayed as if it were this one's.
    pagesOf = 'c'.repeat(32);
    ledger.push(event(4), event(5));
    subscriber.requestCatchUp();
    await subscriber.idle();
    expect(revalidations).toEqual(['ledger_changed']);
    expect(subscriber.lastSeq).toBe(5);
    expect(delivered).toEqual([2, 3]);
    await subscriber.close();
    await subscriptions.close();
  });
});
