import { DEFAULT_CHILD_ENV_KEYS } from '@gatehouse/activation';
import { isPoolOpenToTenant, poolCeilingOf, poolsOpenToTenant, workerPoolsEnvField } from './pool-config';

describe('WORKER_POOLS', () => {
  it('parses pools open to every tenant or to listed slugs', () => {
    const pools = workerPoolsEnvField.parse('{"default":{"tenants":"*"},"eu":{"tenants":["acme"]}}');
    expect(isPoolOpenToTenant(pools, 'default', 'anyone')).toBe(true);
    expect(isPoolOpenToTenant(pools, 'eu', 'acme')).toBe(true);
    expect(isPoolOpenToTenant(pools, 'eu', 'globex')).toBe(false);
    expect(isPoolOpenToTenant(pools, 'us', 'acme')).toBe(false);
    expect(isPoolOpenToTenant(pools, 'constructor', 'acme')).toBe(false);
  });

  it.each([
    ['not json', '{default'],
    ['unknown field', '{"p":{"tenants":"*","sudo":true}}'],
    ['a relative root', '{"p":{"tenants":"*","allowedRoots":["srv/mcp"]}}'],
    ['a root with ..', '{"p":{"tenants":"*","allowedRoots":["/srv/../etc"]}}'],
    ['an empty argv prefix', '{"p":{"tenants":"*","commandCeiling":[[]]}}'],
    ['a bad private range', '{"p":{"tenants":"*","privateRangesTenantsMayOptInto":["10.0.0.0/33"]}}'],
    ['a negative uid', '{"p":{"tenants":"*","runAs":{"uid":-1,"gid":0}}}'],
    ['runAs root', '{"p":{"tenants":"*","runAs":{"uid":0,"gid":0}}}'],
    ['runAs gid 0', '{"p":{"tenants":"*","runAs":{"uid":1000,"gid":0}}}'],
    ['stdio as a string', '{"p":{"tenants":"*","stdio":"yes"}}'],
    ['bad pool name', '{"Bad Pool":{"tenants":"*"}}'],
    ['bad slug', '{"p":{"tenants":["Not A Slug"]}}'],
    ['tenants missing', '{"p":{}}'],
    ['a bare * env entry', '{"p":{"tenants":"*","childEnvKeys":["*"]}}'],
    ['an env prefix without _', '{"p":{"tenants":"*","childEnvKeys":["NPM*"]}}'],
    ['a one-character env prefix', '{"p":{"tenants":"*","childEnvKeys":["_*"]}}'],
    ['an env entry with a dash', '{"p":{"tenants":"*","childEnvKeys":["A-B"]}}'],
    ['an empty env entry', '{"p":{"tenants":"*","childEnvKeys":[""]}}'],
    ['env keys as a string', '{"p":{"tenants":"*","childEnvKeys":"API_KEY"}}'],
    ['PATH as an env entry', '{"p":{"tenants":"*","childEnvKeys":["PATH"]}}'],
    ['HOME as an env entry', '{"p":{"tenants":"*","childEnvKeys":["API_KEY","HOME"]}}'],
    ['SHELL as an env entry', '{"p":{"tenants":"*","childEnvKeys":["SHELL"]}}'],
    ['USER as an env entry', '{"p":{"tenants":"*","childEnvKeys":["USER"]}}'],
    ['LOGNAME as an env entry', '{"p":{"tenants":"*","childEnvKeys":["LOGNAME"]}}'],
    ['TERM as an env entry', '{"p":{"tenants":"*","childEnvKeys":["TERM"]}}'],
  ])('refuses %s without echoing the value', (_label, value) => {
    const result = workerPoolsEnvField.safeParse(value);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).not.toContain(value);
  });
});

describe('pool ceilings', () => {
  it('reads the default pool as the narrowest ceiling: no stdio, no helpers, no roots, no private ranges', () => {
    const pools = workerPoolsEnvField.parse('{"default":{"tenants":"*"}}');
    expect(poolCeilingOf(pools.default as never)).toEqual({
      stdio: false,
      headerHelpers: false,
      allowedRoots: [],
      commandCeiling: [],
      childEnvKeys: DEFAULT_CHILD_ENV_KEYS,
      runAs: null,
      egressDenylist: [],
      privateRangesTenantsMayOptInto: [],
      allowInsecureLoopback: false,
    });
  });

  it('parses every ceiling field and lists only the pools open to a tenant', () => {
    const pools = workerPoolsEnvField.parse(
      JSON.stringify({
        local: {
          tenants: ['acme'],
          stdio: true,
          headerHelpers: true,
          allowedRoots: ['/srv/mcp'],
          commandCeiling: [['npx', '-y', '@modelcontextprotocol/server-everything']],
          runAs: { uid: 1000, gid: 1000 },
          egressDenylist: ['10.9.0.0/16', '*.infra.internal'],
          privateRangesTenantsMayOptInto: ['10.0.0.0/8'],
          allowInsecureLoopback: true,
          childEnvKeys: ['MYCORP_*', 'GITHUB_TOKEN', 'HOME_DIR'],
        },
        shared: { tenants: '*' },
      }),
    );
    expect(poolsOpenToTenant(pools, 'globex').map((p) => p.name)).toEqual(['shared']);
    const acme = poolsOpenToTenant(pools, 'acme');
    expect(acme.map((p) => p.name)).toEqual(['local', 'shared']);
    expect(acme[0]?.ceiling).toMatchObject({
      stdio: true,
      runAs: { uid: 1000, gid: 1000 },
      childEnvKeys: ['MYCORP_*', 'GITHUB_TOKEN', 'HOME_DIR'],
    });
    expect(acme[1]?.ceiling.childEnvKeys).toEqual(DEFAULT_CHILD_ENV_KEYS);
  });
});
