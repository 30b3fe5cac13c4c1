import { hasFilters, readAuditFilters, toApiFilters } from './audit-filters';

describe('audit filters', () => {
  it('turns URL parameters into the API query, times as UTC', () => {
    const values = readAuditFilters({
      action: 'workspaces.create',
      from: '2026-11-01T08:30',
      targetType: 'workspace',
    });
    expect(toApiFilters(values)).toEqual({
      actorId: undefined,
      action: 'workspaces.create',
      targetType: 'workspace',
      targetId: undefined,
      from: '2026-11-01T08:30:00Z',
      to: undefined,
    });
    expect(hasFilters(values)).toBe(true);
    expect(hasFilters(readAuditFilters({}))).toBe(false);
  });

  it('drops values that are not of the expected shape', () => {
    const values = readAuditFilters({ action: 'x"><script>', from: 'yesterday', actor: ['a', 'b'] });
    expect(values).toMatchObject({ action: '', from: '', actor: 'a' });
  });
});
