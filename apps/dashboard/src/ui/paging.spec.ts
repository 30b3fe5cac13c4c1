import { nextPage, pageHref, previousPage, readPageCursor, readPageSize } from './paging';

describe('cursor paging in the URL', () => {
  it('walks forward and back through the trail', () => {
    const first = readPageCursor({});
    expect(first).toEqual({ cursor: undefined, trail: [] });
    expect(previousPage(first)).toBeUndefined();

    const second = nextPage(first, 'B');
    expect(second).toEqual({ cursor: 'B', trail: [] });
    const third = nextPage(second, 'C');
    expect(third).toEqual({ cursor: 'C', trail: ['B'] });

    expect(previousPage(third)).toEqual(second);
    expect(previousPage(second)).toEqual(first);
  });

  it('round-trips through the URL and keeps the filters', () => {
    const href = pageHref(
      '/audit',
      { action: 'workspaces.create', actor: undefined },
      { cursor: 'C', trail: ['A', 'B'] },
    );
    expect(href).toBe('/audit?action=workspaces.create&cursor=C&trail=A.B');
    const params = Object.fromEntries(new URL(href, 'http://x').searchParams);
    expect(readPageCursor(params)).toEqual({ cursor: 'C', trail: ['A', 'B'] });
    expect(pageHref('/audit', {}, { cursor: undefined, trail: [] })).toBe('/audit');
  });

  it('drops cursors that are not of the opaque shape', () => {
    expect(readPageCursor({ cursor: '../x' })).toEqual({ cursor: undefined, trail: [] });
    expect(readPageCursor({ cursor: 'ok', trail: 'A.<b>.C' })).toEqual({ cursor: 'ok', trail: ['A', 'C'] });
  });
});

describe('page size', () => {
  it('accepts only the offered sizes', () => {
    expect(readPageSize({ limit: '10' })).toBe(10);
    expect(readPageSize({ limit: '7' })).toBe(50);
    expect(readPageSize({})).toBe(50);
  });
});
