import type { Redis } from 'ioredis';
import type { ChangeNotifier, ChangeWatch } from './change-notifier.port';

type Listener = () => void;

export interface RedisChangeNotifierOptions {
  /** A connection for PUBLISH (any command connection). */
  readonly publisher: Redis;
  /** A connection this notifier puts in subscriber mode and owns from now on (closed by `close()`). */
  readonly subscriber: Redis;
  /** Channel prefix (the deployment's Redis key prefix keeps tenants of one Redis apart, and tests apart). */
  readonly channelPrefix: string;
}

/**
 * ChangeNotifier over Redis pub/sub: one SUBSCRIBE per topic per process, however many requests watch it,
 * UNSUBSCRIBE when the last watcher goes. At most once: a message lost while a replica reconnects only makes
 * its long-polls answer at their timeout (the port's contract).
 */
export class RedisChangeNotifier implements ChangeNotifier {
  /** Per channel: its watchers, and the SUBSCRIBE every watcher waits for before it reads. */
  private readonly channels = new Map<string, { listeners: Set<Listener>; ready: Promise<unknown> }>();
  private readonly onMessage = (channel: string) => {
    for (const listener of [...(this.channels.get(channel)?.listeners ?? [])]) listener();
  };

  constructor(private readonly options: RedisChangeNotifierOptions) {
    options.subscriber.on('message', this.onMessage);
  }

  channelOf(topic: string): string {
    return `${this.options.channelPrefix}changes:${topic}`;
  }

  async publish(topic: string): Promise<void> {
    await this.options.publisher.publish(this.channelOf(topic), '1');
  }

  async watch(topic: string, signal: AbortSignal): Promise<ChangeWatch> {
    const channel = this.channelOf(topic);
    let changes = 0;
    let seen = 0;
    let wake: (() => void) | null = null;
    const listener: Listener = () => {
      changes += 1;
      wake?.();
    };
    let entry = this.channels.get(channel);
    if (entry === undefined) {
      entry = { listeners: new Set(), ready: this.options.subscriber.subscribe(channel) };
      this.channels.set(channel, entry);
    }
    entry.listeners.add(listener);
    await entry.ready;

    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      signal.removeEventListener('abort', onAbort);
      wake?.();
      const current = this.channels.get(channel);
      current?.listeners.delete(listener);
      if (current !== undefined && current.listeners.size === 0) {
        this.channels.delete(channel);
        await this.options.subscriber.unsubscribe(channel);
      }
    };
    const onAbort = () => void close();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) await close();

    return {
      next: () =>
        new Promise<void>((resolve) => {
          const settle = () => {
            if (changes > seen || closed) {
              seen = changes;
              wake = null;
              resolve();
            }
          };
          wake = settle;
          settle();
        }),
      close,
    };
  }

  /** Unsubscribes everything and closes the subscriber connection (the publisher stays the caller's). */
  async close(): Promise<void> {
    this.options.subscriber.off('message', this.onMessage);
    this.channels.clear();
    this.options.subscriber.disconnect();
  }
}
