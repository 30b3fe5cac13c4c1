import { BoundedLineReader } from './bounded-line-reader';

describe('BoundedLineReader', () => {
  it('splits lines across chunks and strips a trailing CR', () => {
    const reader = new BoundedLineReader(64);
    expect(reader.push(Buffer.from('{"a":1}\r\n{"b"'))).toEqual({ ok: true, lines: ['{"a":1}'] });
    expect(reader.push(Buffer.from(':2}\n\n'))).toEqual({ ok: true, lines: ['{"b":2}', ''] });
  });

  it('keeps a multi-byte character split across chunks whole', () => {
    const bytes = Buffer.from('"é"\n');
    const reader = new BoundedLineReader(64);
    expect(reader.push(bytes.subarray(0, 2))).toEqual({ ok: true, lines: [] });
    expect(reader.push(bytes.subarray(2))).toEqual({ ok: true, lines: ['"é"'] });
  });

  it('allows a line of exactly the cap and refuses one byte more, whether it arrives whole or in pieces', () => {
    expect(new BoundedLineReader(4).push(Buffer.from('abcd\n'))).toEqual({ ok: true, lines: ['abcd'] });
    expect(new BoundedLineReader(4).push(Buffer.from('abcde\n'))).toEqual({ ok: false });
    const pieces = new BoundedLineReader(4);
    expect(pieces.push(Buffer.from('abc'))).toEqual({ ok: true, lines: [] });
    expect(pieces.push(Buffer.from('de'))).toEqual({ ok: false });
  });

  it('refuses an unterminated line that outgrows the cap before it ends', () => {
    const reader = new BoundedLineReader(8);
    expect(reader.push(Buffer.alloc(5, 0x61))).toEqual({ ok: true, lines: [] });
    expect(reader.push(Buffer.alloc(5, 0x61))).toEqual({ ok: false });
  });
});
