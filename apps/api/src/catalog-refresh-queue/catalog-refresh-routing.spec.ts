import { poolCeilingOf, poolsOpenToTenant, type WorkerPools } from '../auth/pool-config';
import { EMPTY_HOST_POLICY, type TenantHostPolicy } from '../host-policy/host-policy';
import { describePoolRefusal, routeCatalogRefresh } from './catalog-refresh-routing';

const EVERYTHING = ['/opt/mcp/bin/mcp-server-everything'];
const POOLS: WorkerPools = {
  // Sorted first, and closed to stdio: an http server goes here.
  aaa: { tenants: '*' },
  local: { tenants: ['acme'], stdio: true, commandCeiling: [EVERYTHING], allowedRoots: ['/srv/mcp'] },
  helpers: { tenants: '*', headerHelpers: true, commandCeiling: [['/opt/helper']] },
};
const TENANT: TenantHostPolicy = {
  ...EMPTY_HOST_POLICY,
  stdioCommands: [EVERYTHING],
  headerHelpers: [['/opt/helper']],
};
const stdio = (argv: string[]) => ({ kind: 'stdio' as const, argv, cwd: null, envKeys: [] });
const http = (headersHelper: string[] | null = null) => ({
  kind: 'http' as const,
  url: 'https://mcp.example.com/mcp',
  headersHelper,
});

describe('routeCatalogRefresh', () => {
  it('sends a stdio server only to a pool whose ceiling and the tenant allow its argv', () => {
    const route = routeCatalogRefresh(
      stdio([...EVERYTHING, 'stdio']),
      poolsOpenToTenant(POOLS, 'acme'),
      TENANT,
    );
    expect(route).toEqual({ ok: true, pool: 'local' });
  });

  it('refuses, pool by pool, a stdio server no open pool may run', () => {
    const globex = poolsOpenToTenant(POOLS, 'globex');
    expect(routeCatalogRefresh(stdio([...EVERYTHING, 'stdio']), globex, TENANT)).toEqual({
      ok: false,
      reason: 'no_pool_allows',
      refusals: [
        { pool: 'aaa', reason: 'stdio_not_allowed_on_pool', key: null },
        { pool: 'helpers', reason: 'stdio_not_allowed_on_pool', key: null },
      ],
    });
    const notAsked = routeCatalogRefresh(stdio(['/bin/sh']), poolsOpenToTenant(POOLS, 'acme'), TENANT);
    expect(notAsked).toMatchObject({ ok: false, reason: 'no_pool_allows' });
    if (!notAsked.ok)
      expect(notAsked.refusals).toContainEqual({ pool: 'local', reason: 'command_not_allowed', key: null });
  });

  it('refuses a stdio server setting an env name outside the allowlist, naming the name', () => {
    const withEnv = { ...stdio([...EVERYTHING, 'stdio']), envKeys: ['API_KEY', 'npm_config_node_options'] };
    const route = routeCatalogRefresh(withEnv, poolsOpenToTenant(POOLS, 'acme'), TENANT);
    expect(route).toMatchObject({ ok: false, reason: 'no_pool_allows' });
    if (!route.ok) {
      const local = { pool: 'local', reason: 'env_key_not_allowed', key: 'npm_config_node_options' };
      expect(route.refusals).toContainEqual(local);
      expect(describePoolRefusal(local)).toBe('local:env_key_not_allowed:npm_config_node_options');
    }
  });

  it('sends a plain http server to the first open pool by name, and a header helper where helpers may run', () => {
    expect(routeCatalogRefresh(http(), poolsOpenToTenant(POOLS, 'acme'), TENANT)).toEqual({
      ok: true,
      pool: 'aaa',
    });
    expect(
      routeCatalogRefresh(http(['/opt/helper', '--token']), poolsOpenToTenant(POOLS, 'acme'), TENANT),
    ).toEqual({ ok: true, pool: 'helpers' });
  });

  it('says so when the operator opened no pool to the tenant', () => {
    expect(routeCatalogRefresh(http(), [], TENANT)).toEqual({
      ok: false,
      reason: 'no_pool_open',
      refusals: [],
    });
    expect(poolCeilingOf({ tenants: '*' }).stdio).toBe(false);
  });
});
