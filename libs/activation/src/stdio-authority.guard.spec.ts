import {
  checkHeaderHelperAuthority,
  checkStdioAuthority,
  isWithinRoot,
  type StdioAuthorityGrant,
  type StdioLaunch,
} from './stdio-authority.guard';
import { DEFAULT_CHILD_ENV_KEYS } from './child-env-allowlist';

// Pure: nothing here spawns, reads the filesystem or the host environment (the real-path part of the check runs
// in libs/mcp-client at spawn time).

const EVERYTHING = ['npx', '-y', '@modelcontextprotocol/server-everything'];
const NODE = ['/usr/bin/node', '/opt/notes-mcp/index.js'];

const grant: StdioAuthorityGrant = {
  stdioAllowed: true,
  commands: [EVERYTHING, NODE],
  ceiling: [EVERYTHING, ['/usr/bin/node']],
  allowedRoots: ['/srv/mcp', '/home/runner/work/'],
  envKeys: DEFAULT_CHILD_ENV_KEYS,
};

const launch = (
  argv: readonly string[],
  cwd: string | null = '/srv/mcp',
  envKeys: string[] = [],
): StdioLaunch => ({
  argv,
  cwd,
  envKeys,
});

describe('checkStdioAuthority', () => {
  it.each([
    ['the exact prefix', EVERYTHING],
    ['a longer argv', [...EVERYTHING, 'stdio']],
    ['a longer argv of the other prefix', [...NODE, '--vault', '/srv/mcp/notes']],
  ])('allows %s', (_label, argv) => {
    expect(checkStdioAuthority(launch(argv), grant)).toEqual({ ok: true, cwd: '/srv/mcp' });
  });

  it.each([
    ['a shorter argv', ['npx', '-y']],
    ['the command alone', ['npx']],
    ['an empty argv', []],
    ['an unlisted command', ['/bin/sh', '-c', 'id']],
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

  it('refuses a command the tenant listed but the pool ceiling does not hold', () => {
    const tenantWider = { ...grant, commands: [...grant.commands, ['/usr/local/bin/deno', 'run']] };
    expect(checkStdioAuthority(launch(['/usr/local/bin/deno', 'run', 'x.ts']), tenantWider)).toEqual({
      ok: false,
      reason: 'command_outside_ceiling',
    });
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
    ['in the command', launch(['/usr/bin/node\0evil', '/opt/notes-mcp/index.js'])],
    ['in an argument', launch([...EVERYTHING, 'a\0b'])],
    ['in the cwd', launch(EVERYTHING, '/srv/mcp/a\0/../../etc')],
    ['in an env key', launch(EVERYTHING, '/srv/mcp', ['A\0B'])],
  ])('refuses a NUL %s, before anything else is compared', (_label, candidate) => {
    expect(checkStdioAuthority(candidate, grant)).toEqual({ ok: false, reason: 'nul_in_launch' });
  });

  it.each([
    'PATH',
    'path',
    'HOME',
    'NODE_OPTIONS',
    'npm_config_node_options',
    'NPM_CONFIG_NODE_OPTIONS',
    'Npm_Config_Node_Options',
    'LD_PRELOAD',
    'ld_library_path',
    'DYLD_INSERT_LIBRARIES',
    'BASH_ENV',
    'api_key',
    '1X',
    'A-B',
    '',
  ])('refuses the env key %j outside the allowlist, and names it', (key) => {
    expect(
      checkStdioAuthority(launch(EVERYTHING, '/srv/mcp', ['API_KEY', key, 'NPM_CONFIG_X']), grant),
    ).toEqual({
      ok: false,
      reason: 'env_key_not_allowed',
      key,
    });
  });

  it('allows env keys the allowlist names (names only: no value is given to the check)', () => {
    expect(
      checkStdioAuthority(launch(EVERYTHING, '/srv/mcp', ['API_KEY', 'MCP_REGION', 'LOG_LEVEL']), grant),
    ).toEqual({
      ok: true,
      cwd: '/srv/mcp',
    });
  });

  it('decides env keys by the grant it is given: an operator list, or none', () => {
    const operator = { ...grant, envKeys: ['MYCORP_*', 'GITHUB_TOKEN'] };
    expect(
      checkStdioAuthority(launch(EVERYTHING, '/srv/mcp', ['MYCORP_A', 'GITHUB_TOKEN']), operator),
    ).toEqual({
      ok: true,
      cwd: '/srv/mcp',
    });
    expect(checkStdioAuthority(launch(EVERYTHING, '/srv/mcp', ['API_KEY']), operator)).toEqual({
      ok: false,
      reason: 'env_key_not_allowed',
      key: 'API_KEY',
    });
    expect(
      checkStdioAuthority(launch(EVERYTHING, '/srv/mcp', ['API_KEY']), { ...grant, envKeys: [] }),
    ).toEqual({
      ok: false,
      reason: 'env_key_not_allowed',
      key: 'API_KEY',
    });
    expect(checkStdioAuthority(launch(EVERYTHING, '/srv/mcp', []), { ...grant, envKeys: [] })).toEqual({
      ok: true,
      cwd: '/srv/mcp',
    });
  });

  it('starts a child with no cwd in the first allowed root, never the ambient directory', () => {
    expect(checkStdioAuthority(launch(EVERYTHING, null), grant)).toEqual({ ok: true, cwd: '/srv/mcp' });
  });

  it('refuses a child with no cwd on a pool with no allowed root', () => {
    expect(checkStdioAuthority(launch(EVERYTHING, null), { ...grant, allowedRoots: [] })).toEqual({
      ok: false,
      reason: 'no_allowed_root',
    });
  });

  it.each([
    ['an allowed root itself', '/srv/mcp'],
    ['a directory below a root', '/srv/mcp/tenant-a/repo'],
    ['a root given with a trailing slash', '/home/runner/work/repo'],
    ['a trailing slash on the cwd', '/srv/mcp/repo/'],
  ])('allows a cwd that is %s', (_label, cwd) => {
    expect(checkStdioAuthority(launch(EVERYTHING, cwd), grant)).toEqual({ ok: true, cwd });
  });

  it.each([
    ['outside every root', '/etc'],
    ['a sibling sharing the root as a string prefix', '/srv/mcp-evil'],
    ['escaping with .. (traversal)', '/srv/mcp/../../etc'],
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

  it('refuses any cwd on a pool with no allowed roots', () => {
    expect(checkStdioAuthority(launch(EVERYTHING, '/srv/mcp'), { ...grant, allowedRoots: [] })).toEqual({
      ok: false,
      reason: 'cwd_outside_allowed_roots',
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
    expect(isWithinRoot('/srv/mcp/x\0', '/srv/mcp')).toBe(false);
  });
});

describe('checkHeaderHelperAuthority', () => {
  const helperGrant = {
    helpersAllowed: true,
    commands: [['/opt/helpers/token']],
    ceiling: [['/opt/helpers/token']],
  };

  it('allows a helper whose argv starts with a chosen prefix', () => {
    expect(checkHeaderHelperAuthority(['/opt/helpers/token'], helperGrant)).toEqual({ ok: true });
    expect(checkHeaderHelperAuthority(['/opt/helpers/token', '--audience', 'mcp'], helperGrant)).toEqual({
      ok: true,
    });
  });

  it('refuses on a pool that does not allow header helpers, whatever the tenant chose', () => {
    expect(
      checkHeaderHelperAuthority(['/opt/helpers/token'], { ...helperGrant, helpersAllowed: false }),
    ).toEqual({ ok: false, reason: 'header_helpers_not_allowed_on_pool' });
  });

  it('refuses a helper the tenant chose outside the ceiling, and a NUL', () => {
    const wider = { ...helperGrant, commands: [...helperGrant.commands, ['/opt/other']] };
    expect(checkHeaderHelperAuthority(['/opt/other'], wider)).toEqual({
      ok: false,
      reason: 'command_outside_ceiling',
    });
    expect(checkHeaderHelperAuthority(['/opt/helpers/token', 'a\0'], helperGrant)).toEqual({
      ok: false,
      reason: 'nul_in_launch',
    });
  });

  it.each([
    [['/opt/helpers/tokenizer']],
    [['/opt/helpers/../helpers/token']],
    [['/OPT/helpers/token']],
    [['sh', '/opt/helpers/token']],
    [[]],
  ])('refuses %j: not an exact prefix match', (argv) => {
    expect(checkHeaderHelperAuthority(argv, helperGrant)).toEqual({
      ok: false,
      reason: 'command_not_allowed',
    });
  });
});
