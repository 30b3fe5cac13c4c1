import { decodeCursor, encodeCursor } from './keyset-cursor';

const id = '0f8e4a52-7f1c-4c39-9a8e-2b0d7f3c1a11';
const at = new Date('2026-11-30T01:02:03.456Z');

describe('keyset cursor', () => {
  it('round-trips a position for the same list', () => {
    const cursor = encodeCursor('workspaces', { at, id });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor('workspaces', cursor)).toEqual({ ok: true, position: { at, id } });
  });

  it('refuses a cursor handed out by another list', () => {
    const cursor = encodeCursor('members', { at, id });
    expect(decodeCursor('workspaces', cursor)).toEqual({ ok: false, reason: 'bad_cursor' });
  });

  it.each([
    ['not base64url', 'abc$def'],
    ['garbage that decodes', Buffer.from('hello world').toString('base64url')],
    ['a non-numeric time', Buffer.from(`workspaces.12x.${id}`).toString('base64url')],
    ['a malformed id', Buffer.from('workspaces.1700000000000.not-a-uuid').toString('base64url')],
    ['extra fields', Buffer.from(`workspaces.1.${id}.x`).toString('base64url')],
    ['too long', 'A'.repeat(300)],
  ])('refuses %s', (_label, cursor) => {
    expect(decodeCursor('workspaces', cursor)).toEqual({ ok: false, reason: 'bad_cursor' });
  });

  it('refuses a cursor with one character changed (non-canonical or different payload)', () => {
    const cursor = encodeCursor('workspaces', { at, id });
    let refusedOrDifferent = 0;
    for (let i = 0; i < cursor.length; i++) {
      const replacement = cursor[i] === 'A' ? 'B' : 'A';
      const edited = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
      const decoded = decodeCursor('workspaces', edited);
      if (!decoded.ok || decoded.position.id !== id || decoded.position.at.getTime() !== at.getTime()) {
        refusedOrDifferent++;
      }
    }
    expect(refusedOrDifferent).toBe(cursor.length);
  });
});
