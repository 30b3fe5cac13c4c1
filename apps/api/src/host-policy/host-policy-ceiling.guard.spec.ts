import { poolCeilingOf, type PoolCeiling } from '../auth/pool-config';
import { EMPTY_HOST_POLICY } from './host-policy';
import { checkAgainstCeilings } from './host-policy-ceiling.guard';

const EVERYTHING = ['npx', '-y', '@modelcontextprotocol/server-everything'];
const stdioPool: PoolCeiling = poolCeilingOf({ tenants: '*', stdio: true, commandCeiling: [EVERYTHING] });
const privatePool: PoolCeiling = poolCeilingOf({
  tenants: '*',
  headerHelpers: true,
  commandCeiling: [['/usr/bin/helper']],
  privateRangesTenantsMayOptInto: ['10.0.0.0/8', 'fd00::/8', '169.254.0.0/16'],
});
const both = [stdioPool, privatePool];

describe('checkAgainstCeilings', () => {
  it('accepts an empty policy even with no open pool', () => {
    expect(checkAgainstCeilings(EMPTY_HOST_POLICY, [])).toEqual({ ok: true });
  });

  it('accepts entries that each fit some pool', () => {
    const policy = {
      ...EMPTY_HOST_POLICY,
      stdioCommands: [EVERYTHING, [...EVERYTHING, 'stdio']],
      headerHelpers: [['/usr/bin/helper', '--x']],
      privateCidrs: ['10.2.0.0/16', 'fd12::/16'],
    };
    expect(checkAgainstCeilings(policy, both)).toEqual({ ok: true });
  });

  it.each([
    ['a command under no prefix', { stdioCommands: [EVERYTHING, ['bash']] }, 'stdioCommands', 1],
    ['a wider command prefix', { stdioCommands: [['npx', '-y']] }, 'stdioCommands', 0],
    // The helper prefix is in privatePool, which allows helpers but not stdio: not a stdio command.
    [
      'a stdio command only a no-stdio pool lists',
      { stdioCommands: [['/usr/bin/helper']] },
      'stdioCommands',
      0,
    ],
    ['a header helper on pools without one', { headerHelpers: [EVERYTHING] }, 'headerHelpers', 0],
    ['a public range', { privateCidrs: ['10.0.0.0/8', '8.8.8.0/24'] }, 'privateCidrs', 1],
    ['a wider range', { privateCidrs: ['10.0.0.0/7'] }, 'privateCidrs', 0],
    [
      'an env name no pool allows',
      { childEnvKeys: ['API_KEY', 'NPM_CONFIG_NODE_OPTIONS'] },
      'childEnvKeys',
      1,
    ],
    ['an env name in another case', { childEnvKeys: ['api_key'] }, 'childEnvKeys', 0],
    ['an env prefix wider than the pool', { childEnvKeys: ['MC_*'] }, 'childEnvKeys', 0],
    ['an env prefix over an exact pool name', { childEnvKeys: ['API_*'] }, 'childEnvKeys', 0],
  ])('refuses %s as outside the ceiling, naming field and index', (_label, fields, field, index) => {
    const result = checkAgainstCeilings({ ...EMPTY_HOST_POLICY, ...fields }, both);
    expect(result).toEqual({ ok: false, field, index, reason: 'outside_operator_ceiling' });
  });

  it("accepts env entries within some pool's allowlist (the default one when the config names none)", () => {
    const operator = poolCeilingOf({ tenants: '*', stdio: true, childEnvKeys: ['MYCORP_*'] });
    const policy = {
      ...EMPTY_HOST_POLICY,
      childEnvKeys: ['MYCORP_EU_*', 'MYCORP_TOKEN', 'MCP_X', 'API_KEY'],
    };
    expect(checkAgainstCeilings(policy, [stdioPool, operator])).toEqual({ ok: true });
    expect(checkAgainstCeilings({ ...EMPTY_HOST_POLICY, childEnvKeys: [] }, [])).toEqual({ ok: true });
    expect(checkAgainstCeilings({ ...policy, childEnvKeys: ['MYCORP_TOKEN'] }, [stdioPool])).toEqual({
      ok: false,
      field: 'childEnvKeys',
      index: 0,
      reason: 'outside_operator_ceiling',
    });
  });

  it('refuses stdio on the default pool whatever the command', () => {
    const result = checkAgainstCeilings({ ...EMPTY_HOST_POLICY, stdioCommands: [EVERYTHING] }, [
      poolCeilingOf({ tenants: '*' }),
    ]);
    expect(result).toMatchObject({ ok: false, field: 'stdioCommands', index: 0 });
  });

  it.each(['169.254.169.254/32', '169.254.0.0/16', 'fd00:ec2::254/128', 'fd00::/8'])(
    'refuses the metadata-bearing range %s even when the operator range holds it',
    (cidr) => {
      const result = checkAgainstCeilings({ ...EMPTY_HOST_POLICY, privateCidrs: [cidr] }, both);
      expect(result).toEqual({ ok: false, field: 'privateCidrs', index: 0, reason: 'metadata_range' });
    },
  );

  it('reports a malformed CIDR as such', () => {
    const result = checkAgainstCeilings({ ...EMPTY_HOST_POLICY, privateCidrs: ['10.0.0.0/40'] }, both);
    expect(result).toEqual({ ok: false, field: 'privateCidrs', index: 0, reason: 'invalid_cidr' });
  });
});
