import { poolCeilingOf } from '../auth/pool-config';
import { effectiveHostPolicy } from '../host-policy/effective-host-policy';
import {
  checkHeaderHelperAuthority,
  checkStdioAuthority,
  isWithinRoot,
  type StdioAuthorityGrant,
  type StdioLaunch,
} from './stdio-authority.check';

const EVERYTHING = ['npx', '-y', '@modelcontextprotocol/server-everything'];
const NODE = ['/usr/bin/node', '/opt/notes-mcp/index.js'];

const grant: StdioAuthorityGrant = {
  stdioAllowed: true,
  commands: [EVERYTHING, NODE],
  allowedRoots: ['/srv/mcp', '/home/runner/work/'],
};

const launch = (argv: readonly string[], cwd: string | null = null): StdioLaunch => ({ argv, cwd });

describe('checkStdioAuthority', () => {
  it.each([
    ['the exact prefix', EVERYTHING],
    ['a longer argv', [...EVERYTHING, 'stdio']],
    ['a longer argv of the other prefix', [...NODE, '--vault', '/srv/mcp/notes']],
  ])('allows %s', (_label, argv) => {
    expect(checkStdioAuthority(launch(argv), grant)).toEqual({ ok: true });
  });

  it.each([
    ['a shorter argv', ['npx', '-y']],
    ['the command alone', ['npx']],
    ['an empty argv', []],
    ['a different first element', ['bunx', '-y', '@modelcontextprotocol/server-everything']],
    ['a different later element', ['npx', '-y', '@modelcontextprotocol/server-everything-else']],
    ['the prefix out of order', ['-y', 'npx', '@modelcontextprotocol/server-everything']],
    ['a path spelled with ..', ['/usr/bin/../bin/node', '/opt/notes-mcp/index.js']],
    ['a path spelled with .', ['/usr/bin/./node', '/opt/notes-mcp/index.js']],
    ['a path spelled with //', ['/usr//bin/node', '/opt/notes-mcp/index.js']],
    ['a bare name for an absolute prefix', ['node', '/opt/notes-mcp/index.js']],
    ['a different case', ['NPX', '-y', '@modelcontextprotocol/server-everything']],
    ['one argument joined with the next', ['npx -y', '@modelcontextprotocol/server-everything']],
    ['trailing whitespace', ['npx ', '-y', '@modelcontextprotocol/server-everything']],
  ])('refuses %s as command_not_allowed', (_label, argv) => {
    expect(checkStdioAuthority(launch(argv), grant)).toEqual({ ok: false, reason: 'command_not_allowed' });
  });

  it('refuses every command on a pool without stdio, before looking at the command', () => {
    expect(checkStdioAuthority(launch(EVERYTHING), { ...grant, stdioAllowed: false })).toEqual({
      ok: false,
      reason: 'stdio_not_allowed_on_pool',
    });
  });

  it('refuses every command when the tenant named none that fits the pool', () => {
    expect(checkStdioAuthority(launch(EVERYTHING), { ...grant, commands: [] })).toEqual({
      ok: false,
      reason: 'command_not_allowed',
    });
  });

  it.each([
    ['an allowed root itself', '/srv/mcp'],
    ['a directory below a root', '/srv/mcp/tenant-a/repo'],
    ['a root given with a trailing slash', '/home/runner/work/repo'],
    ['a trailing slash on the cwd', '/srv/mcp/repo/'],
  ])('allows a cwd that is %s', (_label, cwd) => {
    expect(checkStdioAuthority(launch(EVERYTHING, cwd), grant)).toEqual({ ok: true });
  });

  it.each([
    ['outside every root', '/etc'],
    ['a sibling sharing the root as a string prefix', '/srv/mcp-evil'],
    ['escaping with ..', '/srv/mcp/../../etc'],
    ['staying inside but spelled with ..', '/srv/mcp/a/../b'],
    ['spelled with .', '/srv/mcp/./repo'],
    ['relative', 'srv/mcp/repo'],
    ['relative to the current directory', './repo'],
    ['the parent of a root', '/srv'],
    ['the filesystem root', '/'],
    ['empty', ''],
  ])('refuses a cwd %s', (_label, cwd) => {
    expect(checkStdioAuthority(launch(EVERYTHING, cwd), grant)).toEqual({
      ok: false,
      reason: 'cwd_outside_allowed_roots',
    });
  });

  it('refuses any cwd on a pool with no allowed roots, and allows none given', () => {
    const noRoots = { ...grant, allowedRoots: [] };
    expect(checkStdioAuthority(launch(EVERYTHING, '/srv/mcp'), noRoots)).toEqual({
      ok: false,
      reason: 'cwd_outside_allowed_roots',
    });
    expect(checkStdioAuthority(launch(EVERYTHING, null), noRoots)).toEqual({ ok: true });
  });

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
    };
    const effective = effectiveHostPolicy(tenant, ceiling);
    const poolGrant = {
      stdioAllowed: ceiling.stdio,
      commands: effective.stdioCommands,
      allowedRoots: effective.allowedRoots,
    };
    expect(checkStdioAuthority(launch([...EVERYTHING, 'stdio']), poolGrant)).toEqual({ ok: true });
    expect(checkStdioAuthority(launch(['bash', '-c', 'id']), poolGrant)).toEqual({
      ok: false,
      reason: 'command_not_allowed',
    });
  });
});

describe('isWithinRoot', () => {
  it('compares whole segments, never string prefixes or resolved paths', () => {
    expect(isWithinRoot('/srv/mcp/x', '/srv/mcp')).toBe(true);
    expect(isWithinRoot('/srv/mcpx', '/srv/mcp')).toBe(false);
    expect(isWithinRoot('/srv/mcp', '/srv/mcp/')).toBe(true);
    expect(isWithinRoot('/srv/mcp/x', 'srv/mcp')).toBe(false);
    expect(isWithinRoot('/srv/mcp/x', '/srv/../srv/mcp')).toBe(false);
  });
});

describe('checkHeaderHelperAuthority', () => {
  const grant = { helpersAllowed: true, commands: [['/opt/helpers/token']] };

  it('allows a helper whose argv starts with a chosen prefix', () => {
    expect(checkHeaderHelperAuthority(['/opt/helpers/token'], grant)).toEqual({ ok: true });
    expect(checkHeaderHelperAuthority(['/opt/helpers/token', '--audience', 'mcp'], grant)).toEqual({
      ok: true,
    });
  });

  it('refuses on a pool that does not allow header helpers, whatever the tenant chose', () => {
    expect(checkHeaderHelperAuthority(['/opt/helpers/token'], { ...grant, helpersAllowed: false })).toEqual({
      ok: false,
      reason: 'header_helpers_not_allowed_on_pool',
    });
  });

  it.each([
    [['/opt/helpers/tokenizer']],
    [['/opt/helpers/../helpers/token']],
    [['/OPT/helpers/token']],
    [['sh', '/opt/helpers/token']],
    [[]],
  ])('refuses %j: not an exact prefix match', (argv) => {
    expect(checkHeaderHelperAuthority(argv, grant)).toEqual({ ok: false, reason: 'command_not_allowed' });
  });
});
