import type { Redis } from 'ioredis';
import type { ChannelListenerHandle, RedisChannelMultiplexer } from './channel-multiplexer';
import { silentCoordinationLogger, type CoordinationLogger } from './coordination-logger';
import { assertCoordinationName, coordinationNames } from './coordination-names';
import type { EventTopic, FanOutEvent, FanOutGap, InvalidFanOutEvent } from './event-topic';
import { decodeLogEntry, decodePayload, type FanOutEnvelope } from './fan-out-envelope';
import { publishEventScript } from './fan-out-scripts';
import { FanOutSubscriptionRunner, type FanOutHandler } from './fan-out-subscription';
import { compareStreamIds, isStreamId, normalizeStreamId, STREAM_START_ID } from './stream-id';

export interface EventFanOutOptions {
  // A connection created with purpose 'command': publishing and reading the logs.
  readonly connection: Redis;
  // Needed by subscribe() only (a publisher-only process can leave it out).
  readonly subscriptions?: RedisChannelMultiplexer;
  readonly namespace: string;
  readonly logger?: CoordinationLogger;
  // How many log entries a catch-up reads per round trip.
  readonly catchUpPageSize?: number;
}

export interface SubscribeOptions {
  // Deliver events after this id first (exclusive), then live ones. Without it, only events published after
  // subscribe() resolves (and any racing with it) are delivered. "0-0" means the whole log.
  readonly since?: string;
  readonly onInvalid?: (invalid: InvalidFanOutEvent) => void;
  readonly onGap?: (gap: FanOutGap) => void;
  // A handler that threw or rejected, or a failed log read (retried on the next message or reconnect).
  readonly onError?: (error: unknown) => void;
}

export interface FanOutSubscription {
  readonly topic: string;
  // The id of the last event delivered or skipped: where a new subscription (or readSince) would resume.
  readonly lastId: string;
  // No handler call starts after this resolves.
  close(): Promise<void>;
}

export type ReadSinceResult<T> =
  | {
      readonly ok: true;
      readonly events: FanOutEvent<T>[];
      // Entries that failed validation; skipped, but nextCursor moves past them.
      readonly invalid: InvalidFanOutEvent[];
      // Pass back as `since` to continue: the id of the last entry read, or `since` itself when none.
      readonly nextCursor: string;
      // True when events after `since` were trimmed before they could be read (see FanOutGap).
      readonly gap: boolean;
      // True when `limit` entries were read, so more may follow.
      readonly hasMore: boolean;
    }
  | { readonly ok: false; readonly reason: 'invalid_cursor' };

const DEFAULT_CATCH_UP_PAGE_SIZE = 500;
export const READ_SINCE_MAX_LIMIT = 10_000;

// Broadcast with catch-up. publish() appends the event to a capped Redis stream (the topic's log) and
// PUBLISHes it in the same Lua script. Subscribers SUBSCRIBE first, then read the log after their cursor, then
// deliver live messages, dropping those catch-up already delivered: nothing twice, nothing skipped across the
// boundary. Holders that were away resume from the last id they saw, by subscribe({ since }) or readSince
// (which backs `GET /v1/revocations?since=`).
export class EventFanOut {
  private readonly connection: Redis;
  private readonly subscriptions: RedisChannelMultiplexer | undefined;
  private readonly namespace: string;
  private readonly logger: CoordinationLogger;
  private readonly catchUpPageSize: number;

  constructor(options: EventFanOutOptions) {
    assertCoordinationName('namespace', options.namespace);
    this.connection = options.connection;
    this.subscriptions = options.subscriptions;
    this.namespace = options.namespace;
    this.logger = options.logger ?? silentCoordinationLogger;
    this.catchUpPageSize = options.catchUpPageSize ?? DEFAULT_CATCH_UP_PAGE_SIZE;
    if (!Number.isSafeInteger(this.catchUpPageSize) || this.catchUpPageSize < 1) {
      throw new TypeError('catchUpPageSize must be an integer >= 1');
    }
  }

  // Returns the event's id. A payload that does not match the topic's schema is a bug in the caller: it throws.
  async publish<T>(topic: EventTopic<T>, payload: T): Promise<string> {
    const parsed = topic.schema.safeParse(payload);
    if (!parsed.success) throw new TypeError(`payload does not match the schema of topic ${topic.name}`);
    const reply = await publishEventScript.run(
      this.connection,
      [coordinationNames.topicStreamKey(this.namespace, topic.name)],
      [
        coordinationNames.topicChannel(this.namespace, topic.name),
        JSON.stringify(parsed.data),
        topic.maxLength,
      ],
    );
    if (typeof reply !== 'string' || !isStreamId(reply))
      throw new Error('unexpected reply from the publish script');
    return reply;
  }

  // The id of the newest event in the log, or "0-0" when it is empty: a cursor meaning "from now on".
  async latestId<T>(topic: EventTopic<T>): Promise<string> {
    const newest = await this.connection.xrevrange(
      coordinationNames.topicStreamKey(this.namespace, topic.name),
      '+',
      '-',
      'COUNT',
      1,
    );
    return newest[0]?.[0] ?? STREAM_START_ID;
  }

  // `since` comes from clients, so a malformed one is a typed result, not an exception. `limit` is checked by
  // the caller (an out-of-range one is a bug here).
  async readSince<T>(topic: EventTopic<T>, since: string, limit: number): Promise<ReadSinceResult<T>> {
    if (!isStreamId(since)) return { ok: false, reason: 'invalid_cursor' };
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > READ_SINCE_MAX_LIMIT) {
      throw new TypeError(`limit must be an integer from 1 to ${READ_SINCE_MAX_LIMIT}`);
    }
    const cursor = normalizeStreamId(since);
    const entries = await this.readLog(topic, cursor, limit);
    const events: FanOutEvent<T>[] = [];
    const invalid: InvalidFanOutEvent[] = [];
    for (const entry of entries) {
      const decoded = decodePayload(topic, entry);
      if (decoded.ok) events.push(decoded.event);
      else invalid.push(decoded.invalid);
    }
    const first = entries[0];
    return {
      ok: true,
      events,
      invalid,
      nextCursor: entries.at(-1)?.id ?? cursor,
      gap: first !== undefined && first.prev !== null && first.prev !== cursor,
      hasMore: entries.length === limit,
    };
  }

  // Resolves once the subscription is live and every event after `since` has been handed to the handler.
  async subscribe<T>(
    topic: EventTopic<T>,
    handler: FanOutHandler<T>,
    options: SubscribeOptions = {},
  ): Promise<FanOutSubscription> {
    if (!this.subscriptions) throw new Error('EventFanOut was created without a subscriber multiplexer');
    if (options.since !== undefined && !isStreamId(options.since))
      throw new TypeError('since is not a stream id');
    const callbacks = this.callbacksFor(topic, options);
    let runner: FanOutSubscriptionRunner<T> | null = null;
    const early: string[] = [];
    // Subscribe before reading anything: every event published from here on reaches us live, and whatever
    // came before is in the log.
    const listener: ChannelListenerHandle = await this.subscriptions.listen(
      coordinationNames.topicChannel(this.namespace, topic.name),
      {
        onMessage: (message) => (runner ? runner.onLiveMessage(message) : early.push(message)),
        onResubscribed: () => runner?.requestCatchUp(),
      },
    );
    try {
      const cursor =
        options.since !== undefined ? normalizeStreamId(options.since) : await this.latestId(topic);
      const created = new FanOutSubscriptionRunner(
        topic,
        cursor,
        (afterId, count) => this.readLog(topic, afterId, count),
        handler,
        callbacks,
        this.catchUpPageSize,
      );
      runner = created;
      for (const message of early.splice(0)) created.onLiveMessage(message);
      await created.start();
      return {
        topic: topic.name,
        get lastId() {
          return created.lastId;
        },
        close: async () => {
          await listener.close();
          await created.close();
        },
      };
    } catch (error) {
      await listener.close();
      await runner?.close();
      throw error;
    }
  }

  private async readLog<T>(topic: EventTopic<T>, afterId: string, count: number): Promise<FanOutEnvelope[]> {
    const start = compareStreamIds(afterId, STREAM_START_ID) === 0 ? '-' : `(${afterId}`;
    const entries = await this.connection.xrange(
      coordinationNames.topicStreamKey(this.namespace, topic.name),
      start,
      '+',
      'COUNT',
      count,
    );
    return entries.map(decodeLogEntry);
  }

  // The caller's callbacks, or log lines when there are none; either way a throwing callback cannot break
  // delivery.
  private callbacksFor<T>(topic: EventTopic<T>, options: SubscribeOptions) {
    const guard =
      <A>(callback: ((argument: A) => void) | undefined, fallback: (argument: A) => void) =>
      (argument: A): void => {
        try {
          (callback ?? fallback)(argument);
        } catch (error) {
          this.logger.error({ topic: topic.name, err: errorMessage(error) }, 'fan-out callback threw');
        }
      };
    return {
      onInvalid: guard(options.onInvalid, (invalid: InvalidFanOutEvent) =>
        this.logger.warn({ ...invalid }, 'dropped an invalid fan-out event'),
      ),
      onGap: guard(options.onGap, (gap: FanOutGap) =>
        this.logger.warn({ ...gap }, 'fan-out events were trimmed before delivery'),
      ),
      onError: guard(options.onError, (error: unknown) =>
        this.logger.error({ topic: topic.name, err: errorMessage(error) }, 'fan-out delivery failed'),
      ),
    };
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : 'non-error thrown';
}
