import { exportHref, hasFilters, readAuditFilters, toApiFilters } from './audit-filters';

describe('audit filters', () => {
  it('turns URL parameters into the API query, times as UTC', () => {
    const values = readAuditFilters({
      action: 'approvals',
      from: '2026-11-01T08:30',
      targetKind: 'overlay',
    });
    expect(toApiFilters(values)).toEqual({
      actorId: undefined,
      action: 'approvals',
      targetKind: 'overlay',
      targetId: undefined,
      from: '2026-11-01T08:30:00Z',
      to: undefined,
    });
    expect(hasFilters(values)).toBe(true);
    expect(hasFilters(readAuditFilters({}))).toBe(false);
  });

  it('drops values that are not of the expected shape', () => {
    const values = readAuditFilters({
      action: 'x"><script>',
      from: 'yesterday',
      actor: ['a', 'b'],
      targetKind: 'everything',
    });
    expect(values).toMatchObject({ action: '', from: '', actor: 'a', targetKind: '' });
    expect(readAuditFilters({ action: 'approvals%' }).action).toBe('');
    expect(readAuditFilters({ action: 'a..b' }).action).toBe('');
  });

  it('exports the same filters', () => {
    expect(exportHref(readAuditFilters({ action: 'tokens', targetKind: 'token' }), 'csv')).toBe(
      '/audit/export?format=csv&action=tokens&targetKind=token',
    );
  });
});
