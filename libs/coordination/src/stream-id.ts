// Redis stream ids (`<ms>-<seq>`) compared exactly. Both halves can exceed 2^53, so they are compared as
// bigints, never as numbers or strings ("10-0" < "9-0" as strings).

const STREAM_ID = /^(\d{1,20})-(\d{1,20})$/;

export interface StreamId {
  readonly ms: bigint;
  readonly seq: bigint;
}

// The id before every real entry: a cursor meaning "from the beginning".
export const STREAM_START_ID = '0-0';

export function parseStreamId(value: string): StreamId | null {
  // A bare "0" is how people write "from the beginning"; Redis accepts it too.
  const match = STREAM_ID.exec(value === '0' ? STREAM_START_ID : value);
  if (!match?.[1] || !match[2]) return null;
  return { ms: BigInt(match[1]), seq: BigInt(match[2]) };
}

export function isStreamId(value: string): boolean {
  return parseStreamId(value) !== null;
}

// Normalizes "0" to "0-0" so ids can be compared for equality as strings after this.
export function normalizeStreamId(value: string): string {
  const id = parseStreamId(value);
  if (!id) throw new TypeError('not a Redis stream id');
  return `${id.ms}-${id.seq}`;
}

// Negative when a < b, zero when equal, positive when a > b. Throws on a malformed id: callers validate
// untrusted cursors with `isStreamId` first, so a bad id here is a bug.
export function compareStreamIds(a: string, b: string): number {
  const left = parseStreamId(a);
  const right = parseStreamId(b);
  if (!left || !right) throw new TypeError('not a Redis stream id');
  if (left.ms !== right.ms) return left.ms < right.ms ? -1 : 1;
  if (left.seq !== right.seq) return left.seq < right.seq ? -1 : 1;
  return 0;
}
