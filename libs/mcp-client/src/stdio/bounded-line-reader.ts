// Splits a child's stdout into newline-delimited messages, holding at most `maxBytes` of one message: a line
// that grows past the cap is refused before anything parses it (the receive cap). Bytes, not characters.

export type LineRead = { readonly ok: true; readonly lines: string[] } | { readonly ok: false };

const NEWLINE = 0x0a;

export class BoundedLineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxBytes: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0)
      throw new Error('BoundedLineReader: maxBytes must be a positive integer');
  }

  /** Appends a chunk; the complete lines it ends, or a refusal once a line exceeds the cap. */
  push(chunk: Buffer): LineRead {
    const lines: string[] = [];
    let start = 0;
    for (let index = chunk.indexOf(NEWLINE); index !== -1; index = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, index);
      if (this.pendingBytes + piece.length > this.maxBytes) return this.refuse();
      this.pending.push(piece);
      lines.push(Buffer.concat(this.pending).toString('utf8').replace(/\r$/, ''));
      this.pending = [];
      this.pendingBytes = 0;
      start = index + 1;
    }
    const rest = chunk.subarray(start);
    if (this.pendingBytes + rest.length > this.maxBytes) return this.refuse();
    if (rest.length > 0) {
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    return { ok: true, lines };
  }

  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  private refuse(): LineRead {
    this.clear();
    return { ok: false };
  }
}
