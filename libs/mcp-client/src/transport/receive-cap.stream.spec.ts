import { capResponseBody } from './receive-cap.stream';

async function drain(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
      controller.close();
    },
  });
}

describe('capResponseBody', () => {
  it('passes a whole body up to the cap and refuses one byte more', async () => {
    await expect(drain(capResponseBody(streamOf('abc', 'd'), 'whole', 4, 'http://x:80'))).resolves.toBe(
      'abcd',
    );
    await expect(
      drain(capResponseBody(streamOf('abc', 'de'), 'whole', 4, 'http://x:80')),
    ).rejects.toMatchObject({
      reason: 'message_too_large',
      origin: 'http://x:80',
    });
  });

  it('caps each SSE event, not the stream: many small events pass, one large event does not', async () => {
    const event = 'data: {"a":1}\n\n';
    const many = Array.from({ length: 100 }, () => event);
    await expect(drain(capResponseBody(streamOf(...many), 'per_event', 32, 'http://x:80'))).resolves.toBe(
      many.join(''),
    );
    const large = `data: ${'x'.repeat(40)}\n\n`;
    await expect(
      drain(capResponseBody(streamOf(event, large), 'per_event', 32, 'http://x:80')),
    ).rejects.toMatchObject({
      reason: 'message_too_large',
    });
  });

  it('counts an event split across lines and chunks as one event (CRLF too)', async () => {
    const split = ['data: aaaa\r\n', 'data: bbbb\r\n', '\r\n'];
    await expect(drain(capResponseBody(streamOf(...split), 'per_event', 30, 'o'))).resolves.toBe(
      split.join(''),
    );
    await expect(drain(capResponseBody(streamOf(...split), 'per_event', 20, 'o'))).rejects.toMatchObject({
      reason: 'message_too_large',
    });
  });
});
