import { createTestRedisPrefix, testRedisUrl } from '@gatehouse/testing';
import { z } from 'zod';
import type { Redis } from 'ioredis';
import { RedisChannelMultiplexer } from './channel-multiplexer';
import { coordinationNames } from './coordination-names';
import { EventFanOut, type FanOutSubscription, type SubscribeOptions } from './event-fan-out';
import {
  defineEventTopic,
  type EventTopic,
  type FanOutEvent,
  type FanOutGap,
  type InvalidFanOutEvent,
} from './event-topic';
import { pollUntil, RedisTestHarness } from './test-support/redis-test.harness';

const harness = new RedisTestHarness(testRedisUrl(), createTestRedisPrefix().replace(/:$/, ''));
const { namespace } = harness;
const redis = harness.connection();
const fanOut = new EventFanOut({ connection: redis, subscriptions: harness.multiplexer(), namespace });
const subscriptions: FanOutSubscription[] = [];

const revocationSchema = z.object({
  kind: z.literal('lease_revoked'),
  leaseId: z.string(),
  n: z.number().int(),
});
type Revocation = z.infer<typeof revocationSchema>;
let topicCounter = 0;
const freshTopic = (maxLength?: number): EventTopic<Revocation> =>
  defineEventTopic({ name: `revocations-${(topicCounter += 1)}`, schema: revocationSchema, maxLength });
const revocation = (n: number): Revocation => ({ kind: 'lease_revoked', leaseId: `lease-${n}`, n });

// Collects what a subscription delivers; waitFor resolves from the handler itself, no polling.
class Received<T> {
  readonly events: FanOutEvent<T>[] = [];
  readonly invalid: InvalidFanOutEvent[] = [];
  readonly gaps: FanOutGap[] = [];
  readonly errors: unknown[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  readonly handler = (event: FanOutEvent<T>): void => {
    this.events.push(event);
    this.waiters = this.waiters.filter((waiter) => {
      if (this.events.length < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  };

  options(extra: Partial<SubscribeOptions> = {}): SubscribeOptions {
    return {
      onInvalid: (invalid) => this.invalid.push(invalid),
      onGap: (gap) => this.gaps.push(gap),
      onError: (error) => this.errors.push(error),
      ...extra,
    };
  }

  waitFor(count: number): Promise<void> {
    if (this.events.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  get ids(): string[] {
    return this.events.map((event) => event.id);
  }
}

async function subscribe<T>(
  topic: EventTopic<T>,
  received: Received<T>,
  options: Partial<SubscribeOptions> = {},
  via: EventFanOut = fanOut,
): Promise<FanOutSubscription> {
  const subscription = await via.subscribe(topic, received.handler, received.options(options));
  subscriptions.push(subscription);
  return subscription;
}

async function logIds(topic: EventTopic<unknown>): Promise<string[]> {
  const entries = await redis.xrange(coordinationNames.topicStreamKey(namespace, topic.name), '-', '+');
  return entries.map(([id]) => id);
}

afterAll(async () => {
  await Promise.all(subscriptions.map((subscription) => subscription.close()));
  await harness.cleanup();
});

describe('EventFanOut', () => {
  it('delivers live events in order with the ids publish returned', async () => {
    const topic = freshTopic();
    const received = new Received<Revocation>();
    await subscribe(topic, received);
    const ids = [];
    for (let n = 1; n <= 3; n += 1) ids.push(await fanOut.publish(topic, revocation(n)));
    await received.waitFor(3);
    expect(received.events).toEqual(ids.map((id, i) => ({ id, payload: revocation(i + 1) })));
    expect(received.gaps).toEqual([]);
  });

  it('catches a returning subscriber up from its last id, then continues live', async () => {
    const topic = freshTopic();
    const first = await fanOut.publish(topic, revocation(1));
    const missed = [await fanOut.publish(topic, revocation(2)), await fanOut.publish(topic, revocation(3))];
    const received = new Received<Revocation>();
    const subscription = await subscribe(topic, received, { since: first });
    // Caught up before subscribe() resolved.
    expect(received.ids).toEqual(missed);
    expect(subscription.lastId).toBe(missed[1]);
    const live = await fanOut.publish(topic, revocation(4));
    await received.waitFor(3);
    expect(received.ids).toEqual([...missed, live]);
    expect(received.events.map((event) => event.payload.n)).toEqual([2, 3, 4]);
    expect(received.gaps).toEqual([]);
  });

  it('without since, delivers only what is published after subscribing', async () => {
    const topic = freshTopic();
    await fanOut.publish(topic, revocation(1));
    const received = new Received<Revocation>();
    await subscribe(topic, received);
    const after = await fanOut.publish(topic, revocation(2));
    await received.waitFor(1);
    expect(received.ids).toEqual([after]);
  });

  it('neither duplicates nor skips events across the catch-up/live boundary under concurrent publishing', async () => {
    const topic = freshTopic();
    // A small page size makes the catch-up take several round trips while the publishers keep going.
    const pagedFanOut = new EventFanOut({
      connection: harness.connection(),
      subscriptions: harness.multiplexer(),
      namespace,
      catchUpPageSize: 7,
    });
    const publishers = Array.from(
      { length: 3 },
      () => new EventFanOut({ connection: harness.connection(), namespace }),
    );
    const perPublisher = 150;
    let published = 0;
    const publishing = Promise.all(
      publishers.map(async (publisher, p) => {
        for (let i = 0; i < perPublisher; i += 1) {
          await publisher.publish(topic, revocation(p * perPublisher + i));
          published += 1;
        }
      }),
    );
    const fromStart = new Received<Revocation>();
    const fromNow = new Received<Revocation>();
    await pollUntil(
      async () => published,
      (count) => count >= 60,
    );
    await Promise.all([
      subscribe(topic, fromStart, { since: '0-0' }, pagedFanOut),
      subscribe(topic, fromNow, {}, pagedFanOut),
    ]);
    await publishing;
    const total = publishers.length * perPublisher;
    await fromStart.waitFor(total);
    const log = await logIds(topic);
    expect(log).toHaveLength(total);
    expect(fromStart.ids).toEqual(log);

    // The "from now" subscriber started somewhere in the middle: it must have exactly the rest of the log.
    const start = log.indexOf(fromNow.ids[0] ?? '');
    expect(start).toBeGreaterThan(0);
    await fromNow.waitFor(total - start);
    expect(fromNow.ids).toEqual(log.slice(start));

    for (const received of [fromStart, fromNow]) {
      expect(received.gaps).toEqual([]);
      expect(received.invalid).toEqual([]);
      expect(received.errors).toEqual([]);
    }
  });

  it('recovers events published while its subscriber connection was cut, without a further event', async () => {
    const topic = freshTopic();
    const subscriber = harness.connection('subscriber');
    const ownFanOut = new EventFanOut({
      connection: redis,
      subscriptions: new RedisChannelMultiplexer(subscriber),
      namespace,
    });
    const received = new Received<Revocation>();
    await subscribe(topic, received, {}, ownFanOut);

    await redis.client('KILL', 'ID', await clientIdOf(subscriber));
    // Server-side the subscriber is gone now (ioredis reconnects only after its backoff): these reach nobody
    // over pub/sub and exist only in the log.
    const missed = [];
    for (let n = 1; n <= 3; n += 1) missed.push(await fanOut.publish(topic, revocation(n)));
    const channel = coordinationNames.topicChannel(namespace, topic.name);
    expect(await redis.pubsub('NUMSUB', channel)).toEqual([channel, 0]);

    await received.waitFor(3);
    expect(received.ids).toEqual(missed);
    expect(received.gaps).toEqual([]);
  });

  it('drops invalid events, reports them, and keeps delivering', async () => {
    const topic = freshTopic();
    // Another process (an older or newer version) publishing to the same topic with a different schema.
    const looseTopic = defineEventTopic({
      name: topic.name,
      schema: z.object({ kind: z.string() }).passthrough(),
    });
    const received = new Received<Revocation>();
    await subscribe(topic, received);

    const valid1 = await fanOut.publish(topic, revocation(1));
    const bad = await fanOut.publish(looseTopic, { kind: 'lease_revoked', leaseId: 42 });
    await redis.publish(coordinationNames.topicChannel(namespace, topic.name), 'not an envelope');
    const valid2 = await fanOut.publish(topic, revocation(2));
    await received.waitFor(2);

    expect(received.ids).toEqual([valid1, valid2]);
    expect(received.invalid).toEqual([
      {
        topic: topic.name,
        id: bad,
        reason: 'schema_mismatch',
        issues: ['leaseId: invalid_type', 'n: invalid_type'],
      },
      { topic: topic.name, id: null, reason: 'malformed_envelope', issues: [] },
    ]);
    expect(received.gaps).toEqual([]);
  });

  it('survives a throwing handler: reports the error and delivers the next event', async () => {
    const topic = freshTopic();
    const errors: unknown[] = [];
    const delivered: number[] = [];
    let resolveSecond: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (resolveSecond = resolve));
    subscriptions.push(
      await fanOut.subscribe(
        topic,
        async (event) => {
          delivered.push(event.payload.n);
          if (event.payload.n === 1) throw new Error('handler bug');
          resolveSecond();
        },
        { onError: (error) => errors.push(error) },
      ),
    );
    await fanOut.publish(topic, revocation(1));
    await fanOut.publish(topic, revocation(2));
    await second;
    expect(delivered).toEqual([1, 2]);
    expect(errors).toEqual([new Error('handler bug')]);
  });

  it('lets a handler close its own subscription', async () => {
    const topic = freshTopic();
    const delivered: number[] = [];
    let resolveClosed: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
    const subscription: FanOutSubscription = await fanOut.subscribe(topic, async (event) => {
      delivered.push(event.payload.n);
      await subscription.close();
      resolveClosed();
    });
    await fanOut.publish(topic, revocation(1));
    await closed;
    await fanOut.publish(topic, revocation(2));
    // A subscriber that is still open receives event 2; by then the closed one would have too.
    const witness = new Received<Revocation>();
    await subscribe(topic, witness, { since: '0-0' });
    expect(witness.events.map((event) => event.payload.n)).toEqual([1, 2]);
    expect(delivered).toEqual([1]);
  });

  it('refuses to publish a payload that does not match the topic schema', async () => {
    const topic = freshTopic();
    await expect(
      fanOut.publish(topic, { kind: 'lease_revoked', leaseId: 1, n: 1 } as unknown as Revocation),
    ).rejects.toThrow(TypeError);
    expect(await logIds(topic)).toEqual([]);
  });

  it('reads since a cursor in pages, for the catch-up endpoint', async () => {
    const topic = freshTopic();
    const ids = [];
    for (let n = 1; n <= 5; n += 1) ids.push(await fanOut.publish(topic, revocation(n)));

    const page1 = await fanOut.readSince(topic, '0', 2);
    expect(page1).toEqual({
      ok: true,
      events: [
        { id: ids[0], payload: revocation(1) },
        { id: ids[1], payload: revocation(2) },
      ],
      invalid: [],
      nextCursor: ids[1],
      gap: false,
      hasMore: true,
    });
    const page2 = await fanOut.readSince(topic, ids[1]!, 10);
    expect(page2.ok && page2.events.map((event) => event.id)).toEqual(ids.slice(2));
    expect(page2.ok && page2.hasMore).toBe(false);
    const empty = await fanOut.readSince(topic, ids[4]!, 10);
    expect(empty).toEqual({
      ok: true,
      events: [],
      invalid: [],
      nextCursor: ids[4],
      gap: false,
      hasMore: false,
    });

    expect(await fanOut.readSince(topic, 'yesterday', 10)).toEqual({ ok: false, reason: 'invalid_cursor' });
    await expect(fanOut.readSince(topic, '0-0', 0)).rejects.toThrow(TypeError);
  });

  it('skips unreadable log entries in readSince but moves the cursor past them', async () => {
    const topic = freshTopic();
    const first = await fanOut.publish(topic, revocation(1));
    // Written by something that is not this lib: not JSON.
    const broken = await redis.xadd(
      coordinationNames.topicStreamKey(namespace, topic.name),
      '*',
      'prev',
      first,
      'data',
      '{nope',
    );
    const last = await fanOut.publish(topic, revocation(2));
    const result = await fanOut.readSince(topic, '0-0', 10);
    expect(result).toEqual({
      ok: true,
      events: [
        { id: first, payload: revocation(1) },
        { id: last, payload: revocation(2) },
      ],
      invalid: [{ topic: topic.name, id: broken, reason: 'malformed_json', issues: [] }],
      nextCursor: last,
      gap: false,
      hasMore: false,
    });
  });

  it('caps the log, and tells readers who fell behind the cap that they missed events', async () => {
    const maxLength = 10;
    const topic = freshTopic(maxLength);
    const ids: string[] = [];
    for (let n = 0; n < 600; n += 1) ids.push(await fanOut.publish(topic, revocation(n)));

    const [, nodeSize] = (await redis.config('GET', 'stream-node-max-entries')) as [string, string];
    const length = await redis.xlen(coordinationNames.topicStreamKey(namespace, topic.name));
    expect(length).toBeGreaterThanOrEqual(maxLength);
    expect(length).toBeLessThanOrEqual(maxLength + Number(nodeSize));
    expect(length).toBeLessThan(600);

    const log = await logIds(topic);
    expect(log).toEqual(ids.slice(-length));
    const fromStart = await fanOut.readSince(topic, '0-0', 5);
    expect(fromStart.ok && fromStart.gap).toBe(true);
    expect(fromStart.ok && fromStart.events[0]?.id).toBe(log[0]);
    const fromInside = await fanOut.readSince(topic, log[0]!, 5);
    expect(fromInside.ok && fromInside.gap).toBe(false);

    // A subscriber resuming from a trimmed id gets what is left, and one gap report saying what was lost.
    const received = new Received<Revocation>();
    const trimmedCursor = ids[0]!;
    await subscribe(topic, received, { since: trimmedCursor });
    expect(received.ids).toEqual(log);
    expect(received.gaps).toEqual([{ topic: topic.name, after: trimmedCursor, resumedAt: log[0] }]);
  });

  it('shares one channel subscription between subscribers, and drops it when the last leaves', async () => {
    const topic = freshTopic();
    const channel = coordinationNames.topicChannel(namespace, topic.name);
    const first = new Received<Revocation>();
    const second = new Received<Revocation>();
    const subscriptionA = await fanOut.subscribe(topic, first.handler, first.options());
    const subscriptionB = await fanOut.subscribe(topic, second.handler, second.options());
    expect(await redis.pubsub('NUMSUB', channel)).toEqual([channel, 1]);

    await fanOut.publish(topic, revocation(1));
    await Promise.all([first.waitFor(1), second.waitFor(1)]);
    await subscriptionA.close();
    const after = await fanOut.publish(topic, revocation(2));
    await second.waitFor(2);
    expect(second.ids.at(-1)).toBe(after);
    expect(first.ids).toHaveLength(1);
    expect(subscriptionA.lastId).not.toBe(after);

    await subscriptionB.close();
    expect(await redis.pubsub('NUMSUB', channel)).toEqual([channel, 0]);
  });
});

async function clientIdOf(connection: Redis): Promise<string> {
  const clients = (await redis.client('LIST')) as string;
  const line = clients
    .split('\n')
    .find((entry) => entry.includes(` name=${connection.options.connectionName} `));
  const id = line?.match(/^id=(\d+) /)?.[1];
  if (!id) throw new Error('client not found');
  return id;
}
