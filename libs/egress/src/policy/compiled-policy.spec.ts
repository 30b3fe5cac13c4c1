import { checkEgressPolicy, compileEgressPolicy, isDeniedHostname } from './compiled-policy';
import type { EgressPolicy } from './egress-policy';

const policy = (overrides: Partial<EgressPolicy>): EgressPolicy => ({
  allowInsecureLoopback: false,
  operatorDenylist: { cidrs: [], hostnames: [] },
  operatorAllowedPrivateRanges: [],
  tenantOptedInPrivateRanges: [],
  ...overrides,
});

describe('checkEgressPolicy', () => {
  it('accepts a well-formed policy', () => {
    expect(
      checkEgressPolicy(
        policy({
          operatorDenylist: {
            cidrs: ['10.9.0.0/16', 'fd00::/8'],
            hostnames: ['db.internal', '*.corp.example'],
          },
          operatorAllowedPrivateRanges: ['10.0.0.0/8'],
          tenantOptedInPrivateRanges: ['10.1.0.0/16'],
        }),
      ),
    ).toEqual({ ok: true });
  });

  it('names every malformed entry and its field', () => {
    const result = checkEgressPolicy(
      policy({
        operatorDenylist: { cidrs: ['10.0.0.0'], hostnames: ['10.0.0.1', 'a b'] },
        operatorAllowedPrivateRanges: ['10.0.0.0/33'],
        tenantOptedInPrivateRanges: ['0x0a.0.0.0/8'],
      }),
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        'operatorDenylist.hostnames: not a host name: 10.0.0.1',
        'operatorDenylist.hostnames: not a host name: a b',
        'operatorDenylist.cidrs: not a CIDR: 10.0.0.0',
        'operatorAllowedPrivateRanges: not a CIDR: 10.0.0.0/33',
        'tenantOptedInPrivateRanges: not a CIDR: 0x0a.0.0.0/8',
      ],
    });
  });
});

describe('compileEgressPolicy', () => {
  it('compiles each policy object once', () => {
    const p = policy({});
    expect(compileEgressPolicy(p)).toBe(compileEgressPolicy(p));
  });

  it('matches denied names exactly and wildcards below their suffix only', () => {
    const compiled = compileEgressPolicy(
      policy({ operatorDenylist: { cidrs: [], hostnames: ['DB.internal.', '*.corp.example'] } }),
    );
    expect(isDeniedHostname(compiled, 'db.internal')).toBe(true);
    expect(isDeniedHostname(compiled, 'x.db.internal')).toBe(false);
    expect(isDeniedHostname(compiled, 'a.corp.example')).toBe(true);
    expect(isDeniedHostname(compiled, 'corp.example')).toBe(false);
    expect(isDeniedHostname(compiled, 'evilcorp.example')).toBe(false);
  });
});
