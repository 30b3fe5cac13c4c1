import {
  getEffectiveDefinitions,
  listApprovalRequests,
  putDefinitionSource,
  whoAmI,
} from '@gatehouse/commands';
import { checkedApiUrl, isLoopbackHost } from './api-target';
import { requestOf } from './command-client';
import { displayText, renderTable } from '../output/table';
import { clientConfigOf, passthroughUrl } from '../commands/client-config';
import { credentialsDir } from '../credentials/credentials.store';
import { effectiveAfterImport } from '../commands/effective-after-import';

describe('requestOf: a command input placed as the REST generator reads it', () => {
  it('fills path parameters (encoded) and puts the rest of a GET in the query string', () => {
    const request = requestOf(getEffectiveDefinitions, { workspaceId: 'a/b c', view: 'workspace' });
    expect(request.path).toBe('/v1/workspaces/a%2Fb%20c/effective-definitions');
    expect(request.query.toString()).toBe('view=workspace');
    expect(request.body).toBeUndefined();
  });

  it('sends a PUT as a JSON body, leaves out undefined, repeats arrays in a query', () => {
    expect(requestOf(putDefinitionSource, { tier: 'user', document: { mcpServers: {} } })).toEqual({
      path: '/v1/definition-sources',
      query: new URLSearchParams(),
      body: { tier: 'user', document: { mcpServers: {} } },
    });
    const list = requestOf(listApprovalRequests, {
      status: 'open',
      limit: 200,
      cursor: undefined,
      x: ['1', '2'],
    });
    expect(list.query.toString()).toBe('status=open&limit=200&x=1&x=2');
    expect(requestOf(whoAmI, {}).path).toBe('/v1/me');
  });
});

describe('checkedApiUrl', () => {
  it('takes https anywhere and http to loopback only, normalized', () => {
    expect(checkedApiUrl('https://gatehouse.example.com/', '--api')).toBe('https://gatehouse.example.com');
    expect(checkedApiUrl('http://127.0.0.1:3000', '--api')).toBe('http://127.0.0.1:3000');
    expect(checkedApiUrl('http://[::1]:3000/', '--api')).toBe('http://[::1]:3000');
    expect(checkedApiUrl('http://localhost:3000', '--api')).toBe('http://localhost:3000');
    for (const refused of [
      'http://gatehouse.example.com',
      'ftp://x.example.com',
      'https://user:pw@x.example.com',
      'https://x.example.com/?token=1',
      'not a url',
    ]) {
      expect(() => checkedApiUrl(refused, '--api')).toThrow();
    }
    expect(isLoopbackHost('127.5.0.1')).toBe(true);
    expect(isLoopbackHost('localhost.example.com')).toBe(false);
  });
});

describe('tables', () => {
  it('pads columns and never lets a value drive the terminal', () => {
    expect(
      renderTable(
        ['A', 'BB'],
        [
          ['x', 'y'],
          ['long', null],
        ],
      ),
    ).toEqual(['A     BB', 'x     y', 'long  -']);
    expect(displayText('evil\u001b[31mred\u0007')).toBe('evil?[31mred?');
    expect(displayText('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('client configs', () => {
  const options = {
    gatewayUrl: 'https://gw.example.com/',
    workspaceId: 'w-1',
    tokenEnv: 'GATEHOUSE_TOKEN',
    connectCommand: 'gatehouse',
  };

  it('points every server at its passthrough, keeping its transport, the token as a reference', () => {
    expect(passthroughUrl('https://gw.example.com/', 'w-1', 'a b')).toBe(
      'https://gw.example.com/mcp/w/w-1/s/a%20b',
    );
    const servers = [
      { name: 'remote', transport: 'http' as const },
      { name: 'local', transport: 'stdio' as const },
    ];
    expect(clientConfigOf(servers, { ...options, format: 'claude' })).toEqual({
      mcpServers: {
        remote: {
          type: 'http',
          url: 'https://gw.example.com/mcp/w/w-1/s/remote',
          headers: { Authorization: 'Bearer ${GATEHOUSE_TOKEN}' },
        },
        local: {
          type: 'stdio',
          command: 'gatehouse',
          args: ['connect', 'https://gw.example.com/mcp/w/w-1/s/local'],
          env: { GATEHOUSE_TOKEN: '${GATEHOUSE_TOKEN}' },
        },
      },
    });
    expect(clientConfigOf(servers, { ...options, format: 'vscode' })).toMatchObject({
      servers: { remote: { headers: { Authorization: 'Bearer ${env:GATEHOUSE_TOKEN}' } } },
    });
    const cursor = clientConfigOf(servers, { ...options, format: 'cursor' }) as {
      mcpServers: Record<string, Record<string, unknown>>;
    };
    expect(cursor.mcpServers['remote']).not.toHaveProperty('type');
    expect(cursor.mcpServers['local']?.['env']).toEqual({ GATEHOUSE_TOKEN: '${env:GATEHOUSE_TOKEN}' });
  });
});

describe('credentialsDir', () => {
  it('uses an absolute XDG_CONFIG_HOME, else ~/.config', () => {
    expect(credentialsDir({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/a' })).toBe('/x/cfg/gatehouse');
    expect(credentialsDir({ XDG_CONFIG_HOME: 'relative', HOME: '/home/a' })).toBe(
      '/home/a/.config/gatehouse',
    );
    expect(() => credentialsDir({})).toThrow('set HOME or XDG_CONFIG_HOME');
  });
});

describe('effectiveAfterImport', () => {
  it('says whether each imported entry would be the one in effect, by tier precedence', () => {
    const project = { tier: 'project' as const, origin: 'project:w' };
    const now = [
      { name: 'mine', source: project },
      { name: 'policy', source: { tier: 'managed' as const, origin: 'managed:org' } },
      { name: 'theirs', source: { tier: 'user' as const, origin: 'user:u' } },
      { name: 'twin', source: { tier: 'project' as const, origin: 'project:other' } },
    ];
    const entries = ['mine', 'policy', 'theirs', 'twin', 'new'].map((name) => ({ name, change: 'added' }));
    expect(effectiveAfterImport(project, [...entries, { name: 'gone', change: 'removed' }], now)).toEqual([
      { name: 'mine', outcome: 'takes_effect', other: null },
      { name: 'policy', outcome: 'shadowed', other: 'managed:org' },
      { name: 'theirs', outcome: 'takes_effect', other: 'user:u' },
      { name: 'twin', outcome: 'ambiguous', other: 'project:other' },
      { name: 'new', outcome: 'takes_effect', other: null },
      { name: 'gone', outcome: 'removed', other: null },
    ]);
  });
});
