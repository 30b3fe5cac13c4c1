import { createEventStreamMeter } from './event-stream-meter';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function feed(max: number, chunks: readonly string[]): boolean[] {
  const meter = createEventStreamMeter(max);
  return chunks.map((chunk) => meter.accept(bytes(chunk)));
}

describe('createEventStreamMeter', () => {
  it('lets any number of events through when each is within the cap', () => {
    const event = 'data: 0123456789\n\n'; // 16 bytes of event, then the blank line
    const meter = createEventStreamMeter(17);
    for (let i = 0; i < 1000; i += 1) expect(meter.accept(bytes(event))).toBe(true);
  });

  it('refuses the event that passes the cap, counting its field lines and line ends', () => {
    // "data: abc\n" is 10 bytes, "data: def\n" 10 more: 20 in one event.
    expect(feed(20, ['data: abc\ndata: def\n\n'])).toEqual([true]);
    expect(feed(19, ['data: abc\ndata: def\n\n'])).toEqual([false]);
  });

  it('counts an event across chunk boundaries, wherever they fall', () => {
    const text = 'event: message\ndata: {"jsonrpc":"2.0"}\n\n';
    const whole = feed(30, [text]);
    const split = feed(30, text.split(''));
    expect(whole).toEqual([false]);
    expect(split.includes(false)).toBe(true);
    expect(feed(40, text.split('')).every(Boolean)).toBe(true);
  });

  it('ends events at CRLF, LF and CR blank lines alike', () => {
    for (const eol of ['\r\n', '\n', '\r']) {
      const event = `data: 0123456789${eol}${eol}`;
      const meter = createEventStreamMeter(20);
      for (let i = 0; i < 50; i += 1) expect(meter.accept(bytes(event))).toBe(true);
    }
  });

  it('counts comments (keep-alives) as part of the event they precede', () => {
    expect(feed(12, [': ping\n: ping\n'])).toEqual([false]);
    expect(feed(12, [': ping\n\n: ping\n\n: ping\n\n'])).toEqual([true]);
  });

  it('refuses one endless line that never ends an event', () => {
    const meter = createEventStreamMeter(1024);
    const results: boolean[] = [];
    for (let i = 0; i < 10; i += 1) results.push(meter.accept(bytes('x'.repeat(200))));
    expect(results.slice(0, 5)).toEqual([true, true, true, true, true]);
    expect(results[5]).toBe(false);
  });
});
