import {
  revocationAnnouncement,
  revocationEvent,
  revocationsPage,
  type RevocationEvent,
  type RevocationsPage,
} from '@gatehouse/contracts';
import type { ChannelListenerHandle, RedisChannelMultiplexer } from './channel-multiplexer';
import { silentCoordinationLogger, type CoordinationLogger } from './coordination-logger';
import { revocationChannel, type RevocationStreamRef } from './revocation-channel';

// The holder side of the revocation ledger (docs/decisions/0053-revocation-relay-and-holders.md). A holder
// (worker, gateway, the API's own token cache) subscribes to its stream's channel, tracks the last position it
// handled, and reads the ledger (`GET /v1/revocations?since=`, injected as `readSince`) at start, after every
// reconnect of its Redis subscriber, on a gap, and on a periodic tick (Redis may drop a message and send
// nothing after it). Delivery is at least once and in position order. Whenever it cannot be sure it saw every
// event (a gap in the live stream, an event it cannot read, a handler that failed, a ledger page it cannot
// read) it calls `revalidateAll`: never a silent skip. Positions are those of one ledger, the one its pages name
// (decision 0120): an announcement of another ledger on the same channel is ignored, never taken for a position.
//
// It is live (decision 0129) while it can vouch that every event so far reached it: positioned, its subscriber
// connection up, and its last read of the ledger successful. It stops being live when the connection closes
// (announcements are lost from then on) or a catch-up fails, and is live again once a catch-up after that has read
// the ledger: a holder's caches may be served only while it is live.

export type RevalidateReason =
  'gap' | 'unreadable_event' | 'handler_error' | 'unreadable_page' | 'ledger_changed';

export interface RevocationSubscriberOptions {
  readonly subscriptions: RedisChannelMultiplexer;
  readonly namespace: string;
  readonly stream: RevocationStreamRef;
  /** Reads the ledger after a position (the HTTP catch-up). Its answer is judged here, not trusted. */
  readonly readSince: (since: number, limit: number) => Promise<unknown>;
  /** Called once per event, in position order (again after a restart from an older position: idempotent). */
  readonly onEvent: (event: RevocationEvent) => Promise<void> | void;
  /** Drop or re-check everything held: called when an event may have been missed or mishandled. */
  readonly revalidateAll: (reason: RevalidateReason) => Promise<void> | void;
  /** Where to resume (the last position handled). Absent: the stream's head at start (a holder holding nothing). */
  readonly since?: number;
  /** Periodic catch-up from the ledger (default 30 s); also the retry delay after a failed read. */
  readonly pollIntervalMs?: number;
  readonly pageSize?: number;
  readonly logger?: CoordinationLogger;
}

const DEFAULT_POLL_INTERVAL_MS = 30_000;
const DEFAULT_PAGE_SIZE = 500;

type Pending = { readonly kind: 'message'; readonly raw: string } | { readonly kind: 'catch_up' };

export class RevocationSubscriber {
  private cursor = 0;
  // The ledger this holder's positions belong to, from its first page; null until positioned.
  private ledger: string | null = null;
  private foreignAnnouncementLogged = false;
  private readonly queue: Pending[] = [];
  private running: Promise<void> | null = null;
  private rerun = false;
  private started = false;
  // Set once start() has its position: announcements that arrive before wait in the queue, since judging one
  // against a cursor not yet read would call it a gap (and, from 0, replay the whole ledger).
  private positioned = false;
  private closed = false;
  private listener: ChannelListenerHandle | null = null;
  // Whether the subscriber connection is up, and whether the last read of the ledger succeeded (see `live`).
  private streamUp = true;
  private caughtUp = true;
  private readonly liveListeners = new Set<(live: boolean) => void>();
  private timer: NodeJS.Timeout | null = null;
  private readonly logger: CoordinationLogger;
  private readonly pollIntervalMs: number;
  private readonly pageSize: number;

  constructor(private readonly options: RevocationSubscriberOptions) {
    this.logger = options.logger ?? silentCoordinationLogger;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (options.since !== undefined && (!Number.isSafeInteger(options.since) || options.since < 0))
      throw new TypeError('since must be an integer >= 0');
  }

  /** The last position handled: persist it to resume a later subscriber with `since`. */
  get lastSeq(): number {
    return this.cursor;
  }

  /** Whether every event so far has reached this holder: positioned, connection up, last ledger read successful. */
  get live(): boolean {
    return this.positioned && !this.closed && this.streamUp && this.caughtUp;
  }

  /** Told every change of `live`; returns the unsubscribe. */
  onLiveChange(listener: (live: boolean) => void): () => void {
    this.liveListeners.add(listener);
    return () => this.liveListeners.delete(listener);
  }

  /**
   * Subscribes, then reads the ledger from `since` (or takes its head), so nothing published from here on is
   * missed. Rejects when the first read fails (the holder cannot know where it stands).
   */
  async start(): Promise<void> {
    if (this.started) throw new Error('RevocationSubscriber already started');
    this.started = true;
    this.listener = await this.options.subscriptions.listen(
      revocationChannel(this.options.namespace, this.options.stream),
      {
        onMessage: (raw) => this.enqueue({ kind: 'message', raw }),
        onResubscribed: () => {
          this.streamUp = true;
          this.enqueue({ kind: 'catch_up' });
        },
        onConnectionLost: () =>
          this.whileLiveChanges(() => {
            this.streamUp = false;
            // What was announced while away is read from the ledger before this holder vouches again.
            this.caughtUp = false;
          }),
      },
    );
    if (this.closed) {
      // Closed while the subscription was being confirmed.
      await this.listener.close();
      this.listener = null;
      return;
    }
    try {
      if (this.options.since !== undefined) {
        this.cursor = this.options.since;
        await this.catchUp();
      } else {
        const page = this.readPage(await this.options.readSince(0, 1));
        if (page === null) throw new Error('the revocation ledger answered a page this holder cannot read');
        this.ledger = page.ledger;
        this.cursor = page.head;
      }
    } catch (error) {
      await this.close();
      throw error;
    }
    this.whileLiveChanges(() => {
      this.positioned = true;
    });
    this.schedulePoll();
    this.kick();
  }

  /** Reads the ledger now (tests, or a holder that has its own reason to doubt). */
  requestCatchUp(): void {
    this.enqueue({ kind: 'catch_up' });
  }

  /** Resolves when everything queued so far has been handled. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.whileLiveChanges(() => {
      this.closed = true;
    });
    this.queue.length = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.listener?.close();
    this.listener = null;
    await this.running;
  }

  private enqueue(item: Pending): void {
    if (this.closed) return;
    this.queue.push(item);
    this.kick();
  }

  private kick(): void {
    if (!this.positioned || this.closed || this.listener === null) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    this.rerun = false;
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.rerun || this.queue.length > 0) this.kick();
    });
  }

  // Never rejects: every failure is reported and turned into a revalidation or a retry.
  private async drain(): Promise<void> {
    while (!this.closed) {
      const item = this.queue.shift();
      if (!item) return;
      if (item.kind === 'catch_up') {
        // Several queued catch-ups are one.
        while (this.queue[0]?.kind === 'catch_up') this.queue.shift();
        await this.tryCatchUp();
        continue;
      }
      await this.onMessage(item.raw);
    }
  }

  private async onMessage(raw: string): Promise<void> {
    const announced = parseAnnouncement(raw);
    if (announced !== null && announced.ledger !== this.ledger) {
      // Another deployment publishes under this namespace: its positions say nothing of this ledger.
      if (!this.foreignAnnouncementLogged) {
        this.foreignAnnouncementLogged = true;
        this.logger.warn(
          { stream: this.options.stream.stream },
          'revocation announcement of another ledger ignored: two deployments share this Redis namespace',
        );
      }
      return;
    }
    const event = announced === null ? null : announced.event;
    if (event === null) {
      // Its position is unknown too: read the ledger, which has it (and judges it again).
      await this.revalidate('unreadable_event');
      await this.tryCatchUp();
      return;
    }
    if (event.seq <= this.cursor) return;
    if (event.seq !== this.cursor + 1) {
      // Something between was lost on the way: the ledger has it. Whatever was held meanwhile is re-checked.
      await this.revalidate('gap');
      await this.tryCatchUp();
      // The ledger is the record: an announcement it does not have (yet) never moves the cursor past it.
      if (event.seq !== this.cursor + 1) return;
    }
    await this.deliver(event);
  }

  private async tryCatchUp(): Promise<boolean> {
    try {
      await this.catchUp();
      if (!this.closed && this.streamUp)
        this.whileLiveChanges(() => {
          this.caughtUp = true;
        });
      return true;
    } catch (error) {
      this.whileLiveChanges(() => {
        this.caughtUp = false;
      });
      this.logger.warn(
        { stream: this.options.stream.stream, err: errorMessage(error) },
        'revocation catch-up failed',
      );
      // Tried again on the next message, reconnect or tick: sooner than the tick when it is long.
      this.schedulePoll(Math.min(this.pollIntervalMs, 1_000));
      return false;
    }
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const page = this.readPage(await this.options.readSince(this.cursor, this.pageSize));
      if (page === null) {
        await this.revalidate('unreadable_page');
        throw new Error('unreadable revocation page');
      }
      // Started from a given position, the first page names the ledger that position is of.
      this.ledger ??= page.ledger;
      if (page.ledger !== this.ledger) {
        // The API now keeps another ledger (a restored or replaced database): this holder's position means
        // nothing there. Everything held is re-checked and the holder starts over at that ledger's head.
        await this.revalidate('ledger_changed');
        this.ledger = page.ledger;
        this.cursor = page.head;
        return;
      }
      for (const entry of page.events) {
        if (this.closed) return;
        if (entry.seq <= this.cursor) continue;
        if (entry.seq !== this.cursor + 1) await this.revalidate('gap');
        const event = revocationEvent.safeParse(entry);
        if (!event.success) {
          this.cursor = entry.seq;
          await this.revalidate('unreadable_event');
          continue;
        }
        await this.deliver(event.data);
      }
      if (!page.hasMore || page.events.length === 0) return;
    }
  }

  private readPage(answer: unknown): RevocationsPage | null {
    const page = revocationsPage.safeParse(answer);
    if (!page.success || page.data.stream !== this.options.stream.stream) return null;
    return page.data;
  }

  // The cursor moves past the event whatever happens: a failed handler turns into a revalidation, not a retry
  // loop that would wedge every later event behind it.
  private async deliver(event: RevocationEvent): Promise<void> {
    this.cursor = event.seq;
    try {
      await this.options.onEvent(event);
    } catch (error) {
      this.logger.warn(
        { seq: event.seq, kind: event.kind, err: errorMessage(error) },
        'revocation handler failed',
      );
      await this.revalidate('handler_error');
    }
  }

  private async revalidate(reason: RevalidateReason): Promise<void> {
    this.logger.warn(
      { stream: this.options.stream.stream, reason, seq: this.cursor },
      'revalidating every lease',
    );
    try {
      await this.options.revalidateAll(reason);
    } catch (error) {
      this.logger.error({ reason, err: errorMessage(error) }, 'revalidation failed');
    }
  }

  /** Applies a change of state and tells the listeners when `live` changed with it. */
  private whileLiveChanges(change: () => void): void {
    const before = this.live;
    change();
    const after = this.live;
    if (before === after) return;
    for (const listener of [...this.liveListeners]) {
      try {
        listener(after);
      } catch (error) {
        this.logger.error({ err: errorMessage(error) }, 'revocation live listener threw');
      }
    }
  }

  private schedulePoll(delayMs = this.pollIntervalMs): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.enqueue({ kind: 'catch_up' });
      this.schedulePoll();
    }, delayMs);
    this.timer.unref();
  }
}

function parseAnnouncement(raw: string): { ledger: string; event: RevocationEvent } | null {
  try {
    const parsed = revocationAnnouncement.safeParse(JSON.parse(raw));
    if (!parsed.success) return null;
    const { ledger, ...event } = parsed.data;
    return { ledger, event };
  } catch {
    return null;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : 'non-error thrown';
}
