import { revocationNamespaceOf } from './revocation-namespace';

describe('revocationNamespaceOf', () => {
  it('drops the trailing colons of REDIS_KEY_PREFIX', () => {
    expect(revocationNamespaceOf('gatehouse:')).toBe('gatehouse');
    expect(revocationNamespaceOf('tenant-a::')).toBe('tenant-a');
    expect(revocationNamespaceOf('a:b')).toBe('a:b');
  });

  it('names the default namespace when the prefix is unset or only colons', () => {
    expect(revocationNamespaceOf(undefined)).toBe('gatehouse');
    expect(revocationNamespaceOf(':::')).toBe('gatehouse');
  });
});
