import { entityTagOf, ifNoneMatchHits } from './entity-tag';

describe('entity tags of reads', () => {
  it('are the same for the same body and differ for another', () => {
    expect(entityTagOf({ a: 1, b: [true] })).toBe(entityTagOf({ a: 1, b: [true] }));
    expect(entityTagOf({ a: 1 })).not.toBe(entityTagOf({ a: 2 }));
    expect(entityTagOf({ a: 1 })).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  });

  it('match If-None-Match weakly, in lists and with *', () => {
    const tag = entityTagOf({ a: 1 });
    expect(ifNoneMatchHits(tag, tag)).toBe(true);
    expect(ifNoneMatchHits(`W/${tag}`, tag)).toBe(true);
    expect(ifNoneMatchHits(`"other", ${tag}`, tag)).toBe(true);
    expect(ifNoneMatchHits('*', tag)).toBe(true);
    expect(ifNoneMatchHits('"other"', tag)).toBe(false);
    expect(ifNoneMatchHits(undefined, tag)).toBe(false);
    expect(ifNoneMatchHits('', tag)).toBe(false);
  });
});
