import { McpTransportError } from './transport.error.js';

// The transport-level receive cap, applied to a response body before the SDK parses any of it: a JSON body is
// capped whole; an SSE stream is capped per event (the bytes between blank lines), so a long-lived stream may
// carry any number of messages but no single one larger than the cap. Bytes, not characters.

const LF = 0x0a;
const CR = 0x0d;

export function capResponseBody(
  body: ReadableStream<Uint8Array>,
  mode: 'whole' | 'per_event',
  maxBytes: number,
  origin: string,
): ReadableStream<Uint8Array> {
  let bytes = 0;
  let lineHasContent = false;
  const tooLarge = (): McpTransportError => new McpTransportError('message_too_large', origin);
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (mode === 'whole') {
          bytes += chunk.length;
          if (bytes > maxBytes) {
            controller.error(tooLarge());
            return;
          }
          controller.enqueue(chunk);
          return;
        }
        for (const byte of chunk) {
          if (byte === LF) {
            // A blank line ends an event.
            if (!lineHasContent) bytes = 0;
            lineHasContent = false;
          } else if (byte !== CR) {
            lineHasContent = true;
          }
          bytes += 1;
          if (bytes > maxBytes) {
            controller.error(tooLarge());
            return;
          }
        }
        controller.enqueue(chunk);
      },
    }),
  );
}
