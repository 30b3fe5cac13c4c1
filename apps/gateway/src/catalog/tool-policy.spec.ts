import type { CatalogTool, WorkspaceCatalogV1 } from '@gatehouse/contracts';
import { toolPolicyOf } from './tool-policy.js';

const source = { tier: 'managed' as const, origin: 'managed:gateway' };

function tool(server: string, remoteName: string): CatalogTool {
  return {
    name: `mcp__${server}__${remoteName}`,
    remoteName,
    inputSchema: { type: 'object' },
    axes: { effect: 'write', egress: true },
    axesFrom: { effect: 'default', egress: 'default', irreversibility: 'absent' },
    contentOrigin: 'external',
    source,
  };
}

function server(name: string, tools: CatalogTool[]) {
  return {
    identity: { server: name, protocolVersion: '2025-11-25', serverVersion: '1.0.0' },
    source,
    contentOrigin: 'external' as const,
    contentOriginDeclared: false,
    complete: true,
    stale: name === 'b',
    fetchedAt: '2026-12-01T12:00:00.000Z',
    tools,
    prompts: [],
    resources: [],
    resourceTemplates: [],
    diagnostics: [],
  };
}

const catalog: WorkspaceCatalogV1 = {
  v: 1,
  workspaceId: '2d8e3f4a-5b6c-4d7e-9f8a-0b1c2d3e4f5a',
  principalUserId: null,
  complete: false,
  stale: true,
  servers: [
    {
      name: 'a',
      state: 'discovered',
      source,
      definitionFingerprint: 'f1',
      discoveredFor: 'workspace',
      identity: { server: 'a', protocolVersion: '2025-11-25', serverVersion: '1.0.0' },
      complete: true,
      stale: false,
      fetchedAt: '2026-12-01T12:00:00.000Z',
    },
    {
      name: 'c',
      state: 'pending_discovery',
      source,
      definitionFingerprint: 'f3',
      discoveredFor: null,
      identity: null,
      complete: false,
      stale: false,
      fetchedAt: null,
    },
  ],
  document: {
    v: 1,
    complete: true,
    stale: true,
    servers: [server('a', [tool('a', 'echo'), tool('a', 'add')]), server('b', [tool('b', 'echo')])],
    diagnostics: [],
  },
};

describe('toolPolicyOf', () => {
  it('exposes every tool of the document under its minted name, with its server and remote name', () => {
    const policy = toolPolicyOf(catalog);
    expect(policy.tools.map((t) => t.name)).toEqual(['mcp__a__echo', 'mcp__a__add', 'mcp__b__echo']);
    expect(policy.byName.get('mcp__b__echo')).toMatchObject({ server: 'b', remoteName: 'echo' });
  });

  it('resolves only what it lists: a name not in the catalog is not a tool, whatever an upstream offers', () => {
    const policy = toolPolicyOf(catalog);
    expect(policy.byName.has('mcp__a__secret')).toBe(false);
    expect(policy.byName.has('echo')).toBe(false);
    expect([...policy.byName.keys()].sort()).toEqual(policy.tools.map((t) => t.name).sort());
  });

  it('says how complete and fresh the catalog is, per server', () => {
    expect(toolPolicyOf(catalog).freshness).toEqual({
      complete: false,
      stale: true,
      servers: [
        { name: 'a', state: 'discovered', complete: true, stale: false },
        { name: 'c', state: 'pending_discovery', complete: false, stale: false },
      ],
    });
  });

  it('names why a pending server failed discovery (class, word, fixed sentence), and nothing for the others', () => {
    const failure = {
      failureClass: 'protocol' as const,
      reason: 'protocol_version_refused' as const,
      detail: 'the server refused every protocol version we speak',
      at: '2026-12-02T12:00:00.000Z',
    };
    const withFailure: WorkspaceCatalogV1 = {
      ...catalog,
      servers: catalog.servers.map((s) => (s.name === 'c' ? { ...s, discoveryFailure: failure } : s)),
    };
    const policy = toolPolicyOf(withFailure);
    expect(policy.freshness.servers).toEqual([
      { name: 'a', state: 'discovered', complete: true, stale: false },
      { name: 'c', state: 'pending_discovery', complete: false, stale: false, discoveryFailure: failure },
    ]);
    // The workspace endpoint's surface carries the same freshness its lists put in `_meta`.
    expect(policy.surface({ kind: 'workspace' })?.freshness).toBe(policy.freshness);
  });
});
