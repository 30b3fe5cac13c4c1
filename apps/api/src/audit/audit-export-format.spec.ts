import { csvField, csvHeader, toCsvLine, toJsonLine } from './audit-export-format';
import type { AuditEventViewModel } from './audit-event-view';

const event: AuditEventViewModel = {
  id: '00000000-0000-4000-8000-000000000001',
  seq: 7,
  occurredAt: '2026-12-01T10:00:00.000Z',
  actorType: 'user',
  actorId: 'u1',
  tokenKind: null,
  action: 'approvals.revoked',
  targetType: 'approval',
  targetId: 'a1',
  outcome: 'success',
  data: { serverName: '=HYPERLINK("http://evil")', reason: 'said "no"' },
  hash: 'ab'.repeat(32),
};

describe('audit export formats', () => {
  it('writes one JSON object per line with the readable label', () => {
    const line = toJsonLine(event);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ ...event, label: 'Revoked an approval' });
  });

  it('quotes every CSV field and neutralizes what a spreadsheet would run', () => {
    expect(csvField('=1+1')).toBe(`"'=1+1"`);
    for (const lead of ['+', '-', '@', '\t', '\r']) expect(csvField(`${lead}x`)).toBe(`"'${lead}x"`);
    expect(csvField('a "b", c')).toBe('"a ""b"", c"');
    expect(csvField(null)).toBe('""');
    expect(csvField(-3)).toBe('"-3"');
    expect(csvHeader()).toBe(
      '"seq","occurredAt","actorType","actorId","tokenKind","action","label","targetType","targetId","outcome","data","hash"\r\n',
    );
    const line = toCsvLine(event);
    expect(line).toContain('"Revoked an approval"');
    // The data column is JSON, so it starts with "{": a formula inside it stays inside a string.
    expect(line).toContain(
      '"{""serverName"":""=HYPERLINK(\\""http://evil\\"")"",""reason"":""said \\""no\\""""}"',
    );
  });
});
