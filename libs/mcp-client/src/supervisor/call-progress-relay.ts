import { isJSONRPCNotification, type Transport } from '@modelcontextprotocol/client';

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

/**
 * Progress notifications one call may relay (decision 0130). A caller's UI needs a few hundred at most; a server
 * that sends more costs the caller's stream a write each. Past it the call's progress is dropped, and counted.
 */
export const MAX_PROGRESS_PER_CALL = 1_000;

export interface CallProgressRelayOptions {
  readonly maxPerCall?: number;
  /** One progress of a call past its cap was dropped. */
  readonly onDropped?: () => void;
}

export interface TrackedCall {
  /** The progress token to send in the call's `_meta`. */
  readonly token: string;
  /** The call settled: later progress under its token is no longer ours (the SDK sees, and ignores, it). */
  readonly end: () => void;
}

export class CallProgressRelay {
  private readonly listeners = new Map<string, (progress: CallProgress) => void>();
  private issued = 0;
  private readonly maxPerCall: number;

  /** Reads ahead of the transport's current (the SDK Protocol's) message handler: call after `connect`. */
  constructor(
    transport: Pick<Transport, 'onmessage'>,
    private readonly options: CallProgressRelayOptions = {},
  ) {
    this.maxPerCall = options.maxPerCall ?? MAX_PROGRESS_PER_CALL;
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
    let relayed = 0;
    this.listeners.set(token, (progress) => {
      if (relayed >= this.maxPerCall) {
        this.options.onDropped?.();
        return;
      }
      relayed += 1;
      onProgress(progress);
    });
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
