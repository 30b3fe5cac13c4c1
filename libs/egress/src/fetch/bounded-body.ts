// A response body that errors as soon as it brings more than it may, instead of buffering first: MCP
// responses may be long-lived event streams, so every limit is enforced while reading, on decoded bytes (what
// the caller materializes).
// - `maxBytes` caps the whole body, or, with `perEvent`, each event of a `text/event-stream` body (the stream
//   itself may then run as long as its events stay within the cap and it does not go idle).
// - `idleTimeoutMs` bounds each wait for the next bytes while the reader is waiting for them: a stream that
//   keeps sending stays open however long it lives; one that goes silent that long is cut, as `timeout`.
// `onSettled` runs exactly once, when the body ended, failed or was cancelled.
import type { Readable } from 'node:stream';
import { ReadableStream } from 'node:stream/web';
import { EgressError } from './egress-error.js';
import { createEventStreamMeter } from './event-stream-meter.js';
import { classifyTransportFailure } from './transport-failure.js';

export interface BoundedBodyOptions {
  readonly maxBytes: number;
  /** Cap each event of an event stream rather than the whole body. */
  readonly perEvent?: boolean;
  /** Longest wait for the next bytes while the reader waits; no bound when absent. */
  readonly idleTimeoutMs?: number;
  readonly origin: string;
  /** The caller's signal: an abort it caused is passed through as is, not turned into an EgressError. */
  readonly signal: AbortSignal | null | undefined;
  readonly onSettled?: (outcome: 'complete' | 'failed') => void;
}

type Chunk = { readonly done: true } | { readonly done: false; readonly value: Uint8Array };

interface ChunkSource {
  read(): Promise<Chunk>;
  cancel(reason?: unknown): Promise<void>;
}

// A web stream (tests, any fetch) or a Node stream (undici's dispatcher API: no web stream of its own to pay for).
function sourceOf(source: ReadableStream<Uint8Array> | Readable): ChunkSource {
  if (source instanceof ReadableStream) {
    const reader = source.getReader();
    return { read: () => reader.read() as Promise<Chunk>, cancel: (reason) => reader.cancel(reason) };
  }
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return {
    read: () => chunks.next() as Promise<Chunk>,
    cancel: async () => {
      // Destroying errors the stream; nobody is left to hear it but this listener.
      source.on('error', () => undefined).destroy();
    },
  };
}

const IDLE = Symbol('idle');
const ignore = (): void => undefined;

export function boundBody(
  source: ReadableStream<Uint8Array> | Readable,
  options: BoundedBodyOptions,
): ReadableStream<Uint8Array> {
  const reader = sourceOf(source);
  const { maxBytes, idleTimeoutMs, origin } = options;
  const meter = options.perEvent === true ? createEventStreamMeter(maxBytes) : null;
  let received = 0;
  let settled = false;
  const settle = (outcome: 'complete' | 'failed'): void => {
    if (settled) return;
    settled = true;
    options.onSettled?.(outcome);
  };
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, error: unknown): void => {
    reader.cancel().catch(ignore);
    settle('failed');
    controller.error(error);
  };

  // The next chunk, or IDLE when none came within the idle bound.
  const next = (): Promise<Chunk | typeof IDLE> => {
    if (idleTimeoutMs === undefined) return reader.read();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const idle = new Promise<typeof IDLE>((resolve) => {
      timer = setTimeout(() => resolve(IDLE), idleTimeoutMs);
    });
    return Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Chunk | typeof IDLE;
      try {
        chunk = await next();
      } catch (error) {
        settle('failed');
        controller.error(
          options.signal?.aborted ? error : new EgressError(classifyTransportFailure(error), origin),
        );
        return;
      }
      if (chunk === IDLE) return fail(controller, new EgressError('timeout', origin));
      if (chunk.done) {
        settle('complete');
        controller.close();
        return;
      }
      received += chunk.value.byteLength;
      const within = meter === null ? received <= maxBytes : meter.accept(chunk.value);
      if (!within) return fail(controller, new EgressError('response_too_large', origin));
      controller.enqueue(chunk.value);
    },
    async cancel(reason) {
      try {
        await reader.cancel(reason);
      } finally {
        settle('failed');
      }
    },
  });
}
