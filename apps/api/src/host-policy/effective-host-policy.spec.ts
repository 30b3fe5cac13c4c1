import { DEFAULT_CHILD_ENV_KEYS } from '@gatehouse/activation';
import { poolCeilingOf, type PoolCeiling } from '../auth/pool-config';
import { effectiveHostPolicy } from './effective-host-policy';
import { EMPTY_HOST_POLICY, type TenantHostPolicy } from './host-policy';

const EVERYTHING = ['npx', '-y', '@modelcontextprotocol/server-everything'];

const local: PoolCeiling = poolCeilingOf({
  tenants: '*',
  stdio: true,
  headerHelpers: true,
  allowedRoots: ['/srv/mcp'],
  commandCeiling: [EVERYTHING, ['/usr/local/bin/token-helper']],
  runAs: { uid: 1000, gid: 1000 },
  egressDenylist: ['10.9.0.0/16'],
  privateRangesTenantsMayOptInto: ['10.0.0.0/8'],
  allowInsecureLoopback: false,
});

const tenant: TenantHostPolicy = {
  stdioCommands: [
    [...EVERYTHING, 'stdio'],
    ['bash', '-c'],
  ],
  headerHelpers: [['/usr/local/bin/token-helper', '--github']],
  privateCidrs: ['10.1.0.0/16', '192.168.0.0/24', '169.254.169.254/32'],
  traceContextOrigins: ['https://collector.example.com'],
  fourEyes: true,
  childEnvKeys: null,
};

describe('effectiveHostPolicy', () => {
  it('keeps the tenant entries that fit the pool and takes the operator fields from the ceiling', () => {
    expect(effectiveHostPolicy(tenant, local)).toEqual({
      stdioCommands: [[...EVERYTHING, 'stdio']],
      headerHelpers: [['/usr/local/bin/token-helper', '--github']],
      privateCidrs: ['10.1.0.0/16'],
      traceContextOrigins: ['https://collector.example.com'],
      fourEyes: true,
      allowedRoots: ['/srv/mcp'],
      childEnvKeys: DEFAULT_CHILD_ENV_KEYS,
      runAs: { uid: 1000, gid: 1000 },
      egressDenylist: ['10.9.0.0/16'],
      allowInsecureLoopback: false,
    });
  });

  it('drops every command and range on the default pool (no stdio, no helpers, no private ranges)', () => {
    const effective = effectiveHostPolicy(tenant, poolCeilingOf({ tenants: '*' }));
    expect(effective).toMatchObject({
      stdioCommands: [],
      headerHelpers: [],
      privateCidrs: [],
      allowedRoots: [],
    });
  });

  it('drops stdio commands on a pool that forbids stdio even when a prefix would match', () => {
    const effective = effectiveHostPolicy(tenant, { ...local, stdio: false });
    expect(effective.stdioCommands).toEqual([]);
    expect(effective.headerHelpers).toHaveLength(1);
  });

  it('never widens: a shorter tenant prefix than the ceiling is not under it', () => {
    const wider = { ...EMPTY_HOST_POLICY, stdioCommands: [['npx', '-y']] };
    expect(effectiveHostPolicy(wider, local).stdioCommands).toEqual([]);
  });

  it('never keeps a metadata range, even when the operator range contains it', () => {
    const linkLocal = { ...local, privateRangesTenantsMayOptInto: ['169.254.0.0/16'] };
    const policy = { ...EMPTY_HOST_POLICY, privateCidrs: ['169.254.0.0/16', '169.254.1.0/24'] };
    expect(effectiveHostPolicy(policy, linkLocal).privateCidrs).toEqual(['169.254.1.0/24']);
  });

  it("takes the pool's env allowlist when the tenant wrote none, else the tenant entries the pool covers", () => {
    const operator = { ...local, childEnvKeys: ['MYCORP_*', 'GITHUB_TOKEN'] };
    expect(effectiveHostPolicy(EMPTY_HOST_POLICY, operator).childEnvKeys).toEqual([
      'MYCORP_*',
      'GITHUB_TOKEN',
    ]);
    const narrowing = { ...EMPTY_HOST_POLICY, childEnvKeys: ['MYCORP_EU_*', 'API_KEY', 'GITHUB_TOKEN'] };
    expect(effectiveHostPolicy(narrowing, operator).childEnvKeys).toEqual(['MYCORP_EU_*', 'GITHUB_TOKEN']);
    expect(effectiveHostPolicy({ ...EMPTY_HOST_POLICY, childEnvKeys: [] }, operator).childEnvKeys).toEqual(
      [],
    );
  });
});
