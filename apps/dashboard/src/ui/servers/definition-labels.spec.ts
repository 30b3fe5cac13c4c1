import { describeProblem, problemPath, reasonLabel, shortFingerprint } from './definition-labels';

describe('definition labels', () => {
  it('words a known reason and keeps an unknown one readable', () => {
    expect(reasonLabel('disabled_by_workspace')).toBe('Disabled for everyone in this workspace');
    expect(reasonLabel('brand_new_reason')).toBe('brand new reason');
    expect(reasonLabel(null)).toBe('');
  });

  it('joins a problem path and names its source and extras, never anything else', () => {
    const problem = {
      reason: 'unset_variable',
      path: ['env', 'API_KEY'],
      variable: 'API_KEY',
      value: 'never-shown',
      source: { tier: 'project', origin: 'project:w' },
    };
    expect(problemPath(problem)).toBe('env.API_KEY');
    expect(describeProblem(problem)).toBe('project:w · A variable it needs is not set · (API_KEY)');
    expect(describeProblem(problem)).not.toContain('never-shown');
    expect(problemPath({ reason: 'x' })).toBe('');
  });

  it('shortens a fingerprint for tables', () => {
    expect(shortFingerprint('sha256:0123456789abcdef0123')).toBe('0123456789ab…');
    expect(shortFingerprint(null)).toBe('—');
  });
});
