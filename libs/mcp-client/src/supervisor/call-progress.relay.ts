import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCNotification } from '@modelcontextprotocol/sdk/types.js';

// The progress of our own tool calls, delivered the moment the transport reads it. The SDK's Protocol runs a
// notification's handler a microtask after reading it but settles a response synchronously (forgetting the call's
// progress handler as it does), so a progress notification read in the same chunk as its call's result reached
// the caller after the result or, for the SDK's own `onprogress`, not at all. Reading them ahead of the Protocol
// keeps the order the server wrote: every progress of a call is handed over before that call can settle.

/** A progress notification of one call, as the protocol carries it (numbers and the server's message only). */
export interface CallProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

const PROGRESS = 'notifications/progress';

export interface TrackedCall {
  /** The progress token to send in the call's `_meta`. */
  readonly token: string;
  /** The call settled: later progress under its token is no longer ours (the SDK sees, and ignores, it). */
  readonly end: () => void;
}

export class CallProgressRelay {
  private readonly listeners = new Map<string, (progress: CallProgress) => void>();
  private issued = 0;

  /** Reads ahead of the transport's current (the SDK Protocol's) message handler: call after `connect`. */
  constructor(transport: Pick<Transport, 'onmessage'>) {
    const protocol = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (isJSONRPCNotification(message) && message.method === PROGRESS) {
        const token: unknown = message.params?.progressToken;
        const listener = typeof token === 'string' ? this.listeners.get(token) : undefined;
        if (listener !== undefined) {
          const progress = progressOf(message.params);
          // Ours, but not the protocol's shape: dropped rather than handed on half-read.
          if (progress !== null) listener(progress);
          return;
        }
      }
      protocol?.(message, extra);
    };
  }

  track(onProgress: (progress: CallProgress) => void): TrackedCall {
    this.issued += 1;
    const token = `gatehouse-call-${this.issued}`;
    this.listeners.set(token, onProgress);
    return { token, end: () => void this.listeners.delete(token) };
  }
}

function progressOf(params: Record<string, unknown> | undefined): CallProgress | null {
  const progress = params?.['progress'];
  if (typeof progress !== 'number' || !Number.isFinite(progress)) return null;
  const total = params?.['total'];
  const message = params?.['message'];
  return {
    progress,
    ...(typeof total === 'number' && Number.isFinite(total) ? { total } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}
