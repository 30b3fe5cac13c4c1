import type { Redis } from 'ioredis';
import { silentCoordinationLogger, type CoordinationLogger } from './coordination-logger';

export interface ChannelListener {
  readonly onMessage: (message: string) => void;
  // Called after the subscriber connection came back and the channel is subscribed again. Messages published
  // while it was away are lost to pub/sub: listeners with a durable log (the fan-out) catch up from it here.
  readonly onResubscribed?: () => void;
  // Called when the subscriber connection closes: from then until `onResubscribed`, messages are lost to pub/sub,
  // so a listener that vouches for what it heard (a revocation holder) stops vouching here.
  readonly onConnectionLost?: () => void;
}

export interface ChannelListenerHandle {
  close(): Promise<void>;
}

interface ChannelEntry {
  readonly listeners: Set<ChannelListener>;
  readonly subscribed: Promise<void>;
}

// Shares one subscriber connection between any number of listeners: one SUBSCRIBE per channel however many
// listeners it has, UNSUBSCRIBE when the last one leaves. The caller owns the connection (created with
// purpose 'subscriber') and closes it after `close()`.
export class RedisChannelMultiplexer {
  private readonly channels = new Map<string, ChannelEntry>();
  private closed = false;

  constructor(
    private readonly subscriber: Redis,
    private readonly logger: CoordinationLogger = silentCoordinationLogger,
  ) {
    subscriber.on('message', this.dispatch);
    subscriber.on('ready', this.resubscribe);
    subscriber.on('close', this.lost);
  }

  // Resolves once Redis has confirmed the subscription, so anything published after that is delivered.
  async listen(channel: string, listener: ChannelListener): Promise<ChannelListenerHandle> {
    if (this.closed) throw new Error('channel multiplexer is closed');
    let entry = this.channels.get(channel);
    if (!entry) {
      entry = { listeners: new Set(), subscribed: this.subscriber.subscribe(channel).then(() => undefined) };
      this.channels.set(channel, entry);
    }
    // Registered before the confirmation so nothing published right after it can slip past.
    entry.listeners.add(listener);
    try {
      await entry.subscribed;
    } catch (error) {
      await this.remove(channel, entry, listener);
      throw error;
    }
    let open = true;
    const subscribedEntry = entry;
    return {
      close: async () => {
        if (!open) return;
        open = false;
        await this.remove(channel, subscribedEntry, listener);
      },
    };
  }

  // Unsubscribes everything and stops dispatching; the connection itself stays open (it is the caller's).
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subscriber.off('message', this.dispatch);
    this.subscriber.off('ready', this.resubscribe);
    this.subscriber.off('close', this.lost);
    const channels = [...this.channels.keys()];
    this.channels.clear();
    if (channels.length > 0) await this.unsubscribe(channels);
  }

  private async remove(channel: string, entry: ChannelEntry, listener: ChannelListener): Promise<void> {
    entry.listeners.delete(listener);
    if (entry.listeners.size > 0 || this.channels.get(channel) !== entry) return;
    this.channels.delete(channel);
    // A listen() racing with this sends SUBSCRIBE after our UNSUBSCRIBE on the same socket; Redis applies them
    // in order, so the channel ends up subscribed.
    await this.unsubscribe([channel]);
  }

  private async unsubscribe(channels: string[]): Promise<void> {
    if (this.subscriber.status === 'end') return;
    try {
      await this.subscriber.unsubscribe(...channels);
    } catch (error) {
      // The connection may be closing under us during shutdown; a channel left subscribed on a socket being
      // closed costs nothing.
      this.logger.warn({ channels: channels.length, err: errorMessage(error) }, 'redis unsubscribe failed');
    }
  }

  private readonly dispatch = (channel: string, message: string): void => {
    const entry = this.channels.get(channel);
    if (!entry) return;
    for (const listener of [...entry.listeners]) {
      try {
        listener.onMessage(message);
      } catch (error) {
        // One listener's bug must not starve the others of the message.
        this.logger.error({ channel, err: errorMessage(error) }, 'channel listener threw');
      }
    }
  };

  private readonly lost = (): void => {
    for (const entry of [...this.channels.values()]) {
      for (const listener of [...entry.listeners]) {
        try {
          listener.onConnectionLost?.();
        } catch (error) {
          this.logger.error({ err: errorMessage(error) }, 'channel listener threw');
        }
      }
    }
  };

  // ioredis re-subscribes by itself after a reconnect, but emits 'ready' before sending those SUBSCRIBEs. We
  // subscribe again (idempotent) and wait for Redis to confirm, so when listeners catch up nothing published
  // afterwards can be missed.
  private readonly resubscribe = (): void => {
    const channels = [...this.channels.keys()];
    if (channels.length === 0) return;
    this.subscriber.subscribe(...channels).then(
      () => {
        for (const channel of channels) {
          for (const listener of [...(this.channels.get(channel)?.listeners ?? [])]) {
            try {
              listener.onResubscribed?.();
            } catch (error) {
              this.logger.error({ channel, err: errorMessage(error) }, 'channel listener threw');
            }
          }
        }
      },
      (error: unknown) => this.logger.warn({ err: errorMessage(error) }, 'redis resubscribe failed'),
    );
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : 'non-error thrown';
}
