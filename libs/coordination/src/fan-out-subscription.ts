import type { EventTopic, FanOutEvent, FanOutGap, InvalidFanOutEvent } from './event-topic';
import { decodeLiveMessage, decodePayload, type FanOutEnvelope } from './fan-out-envelope';
import { compareStreamIds } from './stream-id';

export type FanOutHandler<T> = (event: FanOutEvent<T>) => void | Promise<void>;

export interface FanOutSubscriptionCallbacks {
  readonly onInvalid: (invalid: InvalidFanOutEvent) => void;
  readonly onGap: (gap: FanOutGap) => void;
  readonly onError: (error: unknown) => void;
}

// Reads log entries strictly after `afterId`, oldest first, at most `count`.
export type FanOutLogReader = (afterId: string, count: number) => Promise<FanOutEnvelope[]>;

// One subscriber's delivery state: a cursor (the last id delivered or skipped) and a queue of live messages.
// Delivery is serial and in log order; each event is handed to the handler at most once.
//
// Live messages are checked against the cursor: an id at or below it was already delivered (by catch-up) and
// is dropped; one whose `prev` is not the cursor means something was missed (published while catch-up was
// reading, or lost to pub/sub during a reconnect), so the log is read from the cursor first. Messages are
// appended to the log before they are published, so that read always contains the message that triggered it.
export class FanOutSubscriptionRunner<T> {
  private readonly live: FanOutEnvelope[] = [];
  private catchUpRequested = false;
  private started = false;
  private closed = false;
  private running: Promise<void> | null = null;
  private triggeredWhileRunning = false;
  private inHandler = false;

  constructor(
    private readonly topic: EventTopic<T>,
    private cursor: string,
    private readonly readLog: FanOutLogReader,
    private readonly handler: FanOutHandler<T>,
    private readonly callbacks: FanOutSubscriptionCallbacks,
    private readonly pageSize: number,
  ) {}

  get lastId(): string {
    return this.cursor;
  }

  // Live messages may arrive before start(): they wait in the queue until the first catch-up is done.
  onLiveMessage(message: string): void {
    if (this.closed) return;
    const envelope = decodeLiveMessage(message);
    if (!envelope) {
      this.callbacks.onInvalid({
        topic: this.topic.name,
        id: null,
        reason: 'malformed_envelope',
        issues: [],
      });
      return;
    }
    this.live.push(envelope);
    this.kick();
  }

  // After a reconnect of the subscriber connection: whatever was published meanwhile is only in the log.
  requestCatchUp(): void {
    if (this.closed) return;
    this.catchUpRequested = true;
    this.kick();
  }

  // The first catch-up, run directly so a failure reaches the caller of subscribe(); then live delivery starts.
  async start(): Promise<void> {
    await this.catchUp();
    this.started = true;
    this.kick();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live.length = 0;
    // Let a handler call already in progress finish, so close() means "no more handler calls"; unless the
    // handler itself is closing its subscription, which would wait for itself forever.
    if (!this.inHandler) await this.running;
  }

  private kick(): void {
    if (!this.started || this.closed) return;
    if (this.running) {
      this.triggeredWhileRunning = true;
      return;
    }
    this.triggeredWhileRunning = false;
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.triggeredWhileRunning) this.kick();
    });
  }

  // Never rejects. When the log cannot be read (Redis trouble), it reports the error and stops with the
  // message still queued; the next live message or reconnect tries again (no retry loop of its own).
  private async drain(): Promise<void> {
    while (!this.closed) {
      if (this.catchUpRequested) {
        this.catchUpRequested = false;
        if (!(await this.tryCatchUp())) {
          this.catchUpRequested = true;
          return;
        }
        continue;
      }
      const next = this.live.shift();
      if (!next) return;
      if (compareStreamIds(next.id, this.cursor) <= 0) continue;
      if (next.prev !== this.cursor) {
        if (!(await this.tryCatchUp())) {
          this.live.unshift(next);
          return;
        }
        if (compareStreamIds(next.id, this.cursor) <= 0) continue;
        // Not in the log either (trimmed, or Redis lost its data): deliver it and say what was lost.
        this.callbacks.onGap({ topic: this.topic.name, after: this.cursor, resumedAt: next.id });
      }
      await this.deliver(next);
    }
  }

  private async tryCatchUp(): Promise<boolean> {
    try {
      await this.catchUp();
      return true;
    } catch (error) {
      this.callbacks.onError(error);
      return false;
    }
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      const entries = await this.readLog(this.cursor, this.pageSize);
      for (const entry of entries) {
        if (this.closed) return;
        if (entry.prev !== null && entry.prev !== this.cursor) {
          this.callbacks.onGap({ topic: this.topic.name, after: this.cursor, resumedAt: entry.id });
        }
        await this.deliver(entry);
      }
      if (entries.length < this.pageSize) return;
    }
  }

  // The cursor moves past the event whatever happens to it: an invalid event or a failing handler is
  // reported, not retried, so one bad event cannot wedge the subscription.
  private async deliver(envelope: FanOutEnvelope): Promise<void> {
    this.cursor = envelope.id;
    const decoded = decodePayload(this.topic, envelope);
    if (!decoded.ok) {
      this.callbacks.onInvalid(decoded.invalid);
      return;
    }
    this.inHandler = true;
    try {
      await this.handler(decoded.event);
    } catch (error) {
      this.callbacks.onError(error);
    } finally {
      this.inHandler = false;
    }
  }
}
