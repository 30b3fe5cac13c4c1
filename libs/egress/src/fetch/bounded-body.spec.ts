import { ReadableStream } from 'node:stream/web';
import { boundBody } from './bounded-body';
import { EgressError } from './egress-error';

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

  it('caps each event of an event stream, not the stream as a whole', async () => {
    const events = Array.from({ length: 50 }, (_, i) => `data: ${String(i).padStart(4, '0')}\n\n`);
    const body = boundBody(streamOf(events).stream, { maxBytes: 12, perEvent: true, origin, signal: null });
    expect(await readAll(body)).toBe(events.join(''));

    const { stream, cancelled } = streamOf(['data: ok\n\n', 'data: 0123456789\n\n', 'never read']);
    const capped = boundBody(stream, { maxBytes: 12, perEvent: true, origin, signal: null });
    await expect(readAll(capped)).rejects.toEqual(new EgressError('response_too_large', origin));
    expect(cancelled).toHaveLength(1);
  });
});

describe('boundBody idle bound (fake timers, no I/O)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A source that gives one chunk `everyMs` apart, `count` times, then stays silent forever. */
  function tickingSource(everyMs: number, count: number) {
    let sent = 0;
    const cancelled: unknown[] = [];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === count) return new Promise<void>(() => undefined);
        return new Promise<void>((resolve) =>
          setTimeout(() => {
            sent += 1;
            controller.enqueue(new TextEncoder().encode(`data: ${sent}\n\n`));
            resolve();
          }, everyMs),
        );
      },
      cancel(reason) {
        cancelled.push(reason);
      },
    });
    return { stream, cancelled };
  }

  it('keeps a stream open past many idle bounds while bytes flow, and cuts it once it goes silent', async () => {
    const { stream, cancelled } = tickingSource(60, 20);
    const outcomes: string[] = [];
    const body = boundBody(stream, {
      maxBytes: 64,
      perEvent: true,
      idleTimeoutMs: 100,
      origin,
      signal: null,
      onSettled: (o) => outcomes.push(o),
    });
    const reader = body.getReader();
    const received: string[] = [];
    let failure: unknown;
    const reading = (async () => {
      try {
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) return;
          received.push(new TextDecoder().decode(chunk.value));
        }
      } catch (error) {
        failure = error;
      }
    })();
    // 20 chunks 60 ms apart: 1.2 s of life, twelve times the idle bound, then silence.
    await jest.advanceTimersByTimeAsync(20 * 60);
    expect(received).toHaveLength(20);
    expect(failure).toBeUndefined();
    await jest.advanceTimersByTimeAsync(99);
    expect(failure).toBeUndefined();
    await jest.advanceTimersByTimeAsync(2);
    await reading;
    expect(failure).toEqual(new EgressError('timeout', origin));
    expect(outcomes).toEqual(['failed']);
    expect(cancelled).toHaveLength(1);
  });
});
