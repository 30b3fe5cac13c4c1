import { ReadableStream } from 'node:stream/web';
import { boundBody } from './bounded-body';
import { EgressError } from './egress.error';

function streamOf(
  chunks: readonly string[],
  failWith?: unknown,
): { stream: ReadableStream<Uint8Array>; cancelled: unknown[] } {
  const cancelled: unknown[] = [];
  const queue = chunks.map((chunk) => new TextEncoder().encode(chunk));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next !== undefined) controller.enqueue(next);
      else if (failWith !== undefined) controller.error(failWith);
      else controller.close();
    },
    cancel(reason) {
      cancelled.push(reason);
    },
  });
  return { stream, cancelled };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += new TextDecoder().decode(chunk);
  return text;
}

const origin = 'https://api.example:443';

describe('boundBody', () => {
  it('passes a body within the cap through and settles once as complete', async () => {
    const outcomes: string[] = [];
    const { stream } = streamOf(['abc', 'def']);
    const body = boundBody(stream, { maxBytes: 6, origin, signal: null, onSettled: (o) => outcomes.push(o) });
    expect(await readAll(body)).toBe('abcdef');
    expect(outcomes).toEqual(['complete']);
  });

  it('errors with response_too_large as soon as the cap is passed, and cancels the source', async () => {
    const outcomes: string[] = [];
    const { stream, cancelled } = streamOf(['abc', 'defg', 'never read']);
    const body = boundBody(stream, { maxBytes: 6, origin, signal: null, onSettled: (o) => outcomes.push(o) });
    await expect(readAll(body)).rejects.toEqual(new EgressError('response_too_large', origin));
    expect(outcomes).toEqual(['failed']);
    expect(cancelled).toHaveLength(1);
  });

  it('turns a transport failure into a typed error without its text', async () => {
    const failure = new TypeError('terminated', {
      cause: Object.assign(new Error('10.0.0.5:443'), { code: 'UND_ERR_BODY_TIMEOUT' }),
    });
    const { stream } = streamOf(['abc'], failure);
    const body = boundBody(stream, { maxBytes: 100, origin, signal: null, onSettled: () => undefined });
    const error: unknown = await readAll(body).catch((e: unknown) => e);
    expect(error).toEqual(new EgressError('timeout', origin));
    expect(String((error as Error).message)).not.toContain('10.0.0.5');
  });

  it("passes the caller's own abort through unchanged", async () => {
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException('aborted', 'AbortError');
    const { stream } = streamOf([], abort);
    const body = boundBody(stream, {
      maxBytes: 100,
      origin,
      signal: controller.signal,
      onSettled: () => undefined,
    });
    await expect(readAll(body)).rejects.toBe(abort);
  });

  it('settles as failed when the reader cancels', async () => {
    const outcomes: string[] = [];
    const { stream, cancelled } = streamOf(['abc', 'def']);
    const body = boundBody(stream, {
      maxBytes: 100,
      origin,
      signal: null,
      onSettled: (o) => outcomes.push(o),
    });
    await body.cancel('done with it');
    expect(outcomes).toEqual(['failed']);
    expect(cancelled).toEqual(['done with it']);
  });
});
