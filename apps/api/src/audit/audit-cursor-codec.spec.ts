import { decodeAuditCursor, encodeAuditCursor } from './audit-cursor-codec';

describe('audit cursor', () => {
  it('round-trips a seq and stays within the cursor alphabet', () => {
    for (const seq of [0n, 1n, 42n, 9_223_372_036_854_775_807n]) {
      const cursor = encodeAuditCursor(seq);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeAuditCursor(cursor)).toEqual({ ok: true, beforeSeq: seq });
    }
  });

  it('refuses anything it did not hand out', () => {
    const good = encodeAuditCursor(17n);
    const bad = [
      'x',
      good.slice(0, -1),
      `${good}A`,
      Buffer.from('a1.017').toString('base64url'),
      Buffer.from('a1.-1').toString('base64url'),
      Buffer.from('a1.9223372036854775808').toString('base64url'),
      Buffer.from('zz.17').toString('base64url'),
      Buffer.from('a1.17 ').toString('base64url'),
      'A'.repeat(65),
    ];
    for (const cursor of bad) expect(decodeAuditCursor(cursor)).toEqual({ ok: false, reason: 'bad_cursor' });
  });
});
