// A response body that errors as soon as more than `maxBytes` have arrived, instead of buffering first: MCP
// responses may be long-lived event streams, so the cap is enforced while reading, on decoded bytes (what the
// caller materializes). `onSettled` runs exactly once, when the body ended, failed or was cancelled, so the
// connection behind it is released.
import { ReadableStream } from 'node:stream/web';
import { EgressError } from './egress.error.js';
import { classifyTransportFailure } from './transport-failure.js';

export interface BoundedBodyOptions {
  readonly maxBytes: number;
  readonly origin: string;
  /** The caller's signal: an abort it caused is passed through as is, not turned into an EgressError. */
  readonly signal: AbortSignal | null | undefined;
  readonly onSettled: (outcome: 'complete' | 'failed') => void;
}

export function boundBody(
  source: ReadableStream<Uint8Array>,
  options: BoundedBodyOptions,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let received = 0;
  let settled = false;
  const settle = (outcome: 'complete' | 'failed'): void => {
    if (settled) return;
    settled = true;
    options.onSettled(outcome);
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        settle('failed');
        controller.error(
          options.signal?.aborted ? error : new EgressError(classifyTransportFailure(error), options.origin),
        );
        return;
      }
      if (chunk.done) {
        settle('complete');
        controller.close();
        return;
      }
      received += chunk.value.byteLength;
      if (received > options.maxBytes) {
        reader.cancel().catch(() => undefined);
        settle('failed');
        controller.error(new EgressError('response_too_large', options.origin));
        return;
      }
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
