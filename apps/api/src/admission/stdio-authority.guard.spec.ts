import { checkStdioAuthority } from '@gatehouse/activation';
import { poolCeilingOf } from '../auth/pool-config';
import { effectiveHostPolicy } from '../host-policy/effective-host-policy';

// The check itself lives in @gatehouse/activation (one check, used at lease time here and at spawn time by
// libs/mcp-client), with its own cases there. This file holds what only the API composes: the grant it builds
// from the tenant's HostPolicy and the pool's ceiling.
const EVERYTHING = ['npx', '-y', '@modelcontextprotocol/server-everything'];

describe('the API grant for checkStdioAuthority', () => {
  it('decides on the effective policy: a tenant prefix outside the pool ceiling grants nothing there', () => {
    const ceiling = poolCeilingOf({
      tenants: '*',
      stdio: true,
      commandCeiling: [EVERYTHING],
      allowedRoots: ['/srv/mcp'],
    });
    const tenant = {
      stdioCommands: [EVERYTHING, ['bash', '-c']],
      headerHelpers: [],
      privateCidrs: [],
      traceContextOrigins: [],
      fourEyes: false,
      childEnvKeys: null,
    };
    const effective = effectiveHostPolicy(tenant, ceiling);
    const poolGrant = {
      stdioAllowed: ceiling.stdio,
      commands: effective.stdioCommands,
      ceiling: ceiling.commandCeiling,
      allowedRoots: effective.allowedRoots,
      envKeys: effective.childEnvKeys,
    };
    const launch = (argv: string[]) => ({ argv, cwd: null, envKeys: [] });
    expect(checkStdioAuthority(launch([...EVERYTHING, 'stdio']), poolGrant)).toEqual({
      ok: true,
      cwd: '/srv/mcp',
    });
    expect(checkStdioAuthority(launch(['bash', '-c', 'id']), poolGrant)).toEqual({
      ok: false,
      reason: 'command_not_allowed',
    });
  });
});
