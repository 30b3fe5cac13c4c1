import { pageOf } from './list-page.js';

describe('pageOf', () => {
  const items = Array.from({ length: 5 }, (_, i) => i);

  it('walks a list page by page with opaque cursors, the last page without one', () => {
    const first = pageOf(items, undefined, 2);
    expect(first).toEqual({ ok: true, items: [0, 1], nextCursor: 'p1.2' });
    const second = pageOf(items, first.ok ? first.nextCursor : undefined, 2);
    expect(second).toEqual({ ok: true, items: [2, 3], nextCursor: 'p1.4' });
    expect(pageOf(items, 'p1.4', 2)).toEqual({ ok: true, items: [4] });
    expect(pageOf(items, undefined, 10)).toEqual({ ok: true, items });
  });

  it('answers past the end (the list shrank since) with an empty last page', () => {
    expect(pageOf(items, 'p1.9', 2)).toEqual({ ok: true, items: [] });
  });

  it('refuses a cursor it did not make', () => {
    for (const cursor of ['', 'p1.0', 'p1.-1', '2', 'p2.2', 'p1.2x', 'p1.1234567890'])
      expect(pageOf(items, cursor, 2)).toEqual({ ok: false, reason: 'invalid_cursor' });
  });
});
