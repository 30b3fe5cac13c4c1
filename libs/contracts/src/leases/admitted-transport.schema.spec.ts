import { admittedTransport, admittedTransportV1 } from './admitted-transport.schema';

const authority = {
  commands: [['/usr/bin/node', '/opt/mcp/index.js']],
  ceiling: [['/usr/bin/node']],
  allowedRoots: ['/srv/mcp'],
  envKeys: ['GITHUB_TOKEN', 'MCP_*'],
  runAs: { uid: 1000, gid: 1000 },
};

const http = {
  kind: 'http',
  url: 'https://mcp.example.com/mcp?k=secret',
  origin: 'https://mcp.example.com:443',
  addresses: ['93.184.216.34', '2606:2800:220:1::1'],
  allowInsecureLoopback: false,
  privateRanges: [],
  headers: { 'X-Api-Key': 'k' },
  principalHeader: { name: 'X-Principal', value: 'user-1' },
  headersHelper: null,
  startupTimeoutMs: null,
};

const stdio = {
  kind: 'stdio',
  command: '/usr/bin/node',
  args: ['/opt/mcp/index.js', 'stdio'],
  env: { API_KEY: 'k' },
  cwd: null,
  authority,
  startupTimeoutMs: 5_000,
};

describe('admittedTransport', () => {
  it('accepts an http and a stdio description in a versioned envelope', () => {
    expect(admittedTransport.safeParse({ v: 1, transport: http }).success).toBe(true);
    expect(admittedTransport.safeParse({ v: 1, transport: stdio }).success).toBe(true);
    expect(admittedTransport.safeParse({ v: 2, transport: stdio }).success).toBe(false);
  });

  it.each([
    ['an unknown field', { ...http, follow: true }],
    ['a websocket URL', { ...http, url: 'wss://mcp.example.com/' }],
    ['no checked address', { ...http, addresses: [] }],
    ['a host name as an address', { ...http, addresses: ['mcp.example.com'] }],
    ['a header value with a line break', { ...http, headers: { 'X-A': 'a\r\nHost: evil' } }],
    ['one header written twice', { ...http, headers: { 'X-A': '1', 'x-a': '2' } }],
    ['an invalid header name', { ...http, headers: { 'X A': '1' } }],
    ['a startup bound below 1 000 ms', { ...http, startupTimeoutMs: 999 }],
    ['a fractional startup bound', { ...http, startupTimeoutMs: 1500.5 }],
  ])('refuses an http description with %s', (_label, candidate) => {
    expect(admittedTransportV1.safeParse(candidate).success).toBe(false);
  });

  it.each([
    ['an invalid env name', { ...stdio, env: { 'A-B': '1' } }],
    ['a relative allowed root', { ...stdio, authority: { ...authority, allowedRoots: ['srv'] } }],
    ['an allowed root with ..', { ...stdio, authority: { ...authority, allowedRoots: ['/srv/../etc'] } }],
    ['an empty command', { ...stdio, command: '' }],
    ['a negative uid', { ...stdio, authority: { ...authority, runAs: { uid: -1, gid: 0 } } }],
    // A producer (or a worker) older than the env allowlist: refused, never read as "any name".
    ['no env allowlist', { ...stdio, authority: { ...authority, envKeys: undefined } }],
    ['a bare * env entry', { ...stdio, authority: { ...authority, envKeys: ['*'] } }],
    ['an env prefix without _', { ...stdio, authority: { ...authority, envKeys: ['NPM*'] } }],
    ['an env entry with a NUL', { ...stdio, authority: { ...authority, envKeys: ['A\0'] } }],
  ])('refuses a stdio description with %s', (_label, candidate) => {
    expect(admittedTransportV1.safeParse(candidate).success).toBe(false);
  });
});
