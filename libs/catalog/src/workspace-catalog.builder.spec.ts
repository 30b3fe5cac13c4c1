import { workspaceCatalog, type ServerCatalogV1 } from '@gatehouse/contracts';
import { buildWorkspaceCatalog, type ChosenCatalogSnapshot } from './workspace-catalog.builder';

const WORKSPACE = '6f1c2f52-8d4a-4a43-9d1e-3b1f8f0f6c11';
const reported = { tier: 'plugin', origin: 'plugin:claimed-by-worker' } as const;
const resolved = { tier: 'managed', origin: 'managed:org-policy' } as const;

function serverCatalog(
  server: string,
  tools: string[],
  extra: Partial<ServerCatalogV1> = {},
): ServerCatalogV1 {
  return {
    identity: { server, protocolVersion: '2025-11-25', serverVersion: '1.0.0' },
    source: reported,
    contentOrigin: 'external',
    contentOriginDeclared: false,
    complete: true,
    stale: false,
    fetchedAt: '2026-12-01T10:00:00.000Z',
    tools: tools.map((name) => ({
      name: `mcp__${server}__${name}`,
      remoteName: name,
      inputSchema: { type: 'object' },
      axes: { effect: 'write', egress: true },
      axesFrom: { effect: 'default', egress: 'default', irreversibility: 'absent' },
      contentOrigin: 'external',
      source: reported,
    })),
    prompts: [],
    resources: [],
    resourceTemplates: [],
    diagnostics: [],
    ...extra,
  };
}

function chosen(catalog: ServerCatalogV1, included = true): ChosenCatalogSnapshot {
  return {
    discoveredFor: 'workspace',
    identity: catalog.identity,
    complete: catalog.complete,
    stale: catalog.stale,
    fetchedAt: catalog.fetchedAt,
    catalog: included ? catalog : null,
  };
}

const approved = (name: string) => ({ name, source: resolved, definitionFingerprint: `fp-${name}` });

describe('buildWorkspaceCatalog', () => {
  it('lists every approved server in name order, and assembles the discovered ones', () => {
    const catalog = buildWorkspaceCatalog({
      workspaceId: WORKSPACE,
      principalUserId: null,
      servers: [
        { server: approved('zeta'), snapshot: null },
        { server: approved('alpha'), snapshot: chosen(serverCatalog('alpha', ['echo', 'add'])) },
      ],
    });
    expect(workspaceCatalog.safeParse(catalog).success).toBe(true);
    expect(catalog.servers.map((s) => [s.name, s.state])).toEqual([
      ['alpha', 'discovered'],
      ['zeta', 'pending_discovery'],
    ]);
    expect(catalog.servers[1]).toMatchObject({ identity: null, fetchedAt: null, complete: false });
    expect(catalog.document.servers.map((s) => s.identity.server)).toEqual(['alpha']);
    expect(catalog.document.servers[0]?.tools.map((t) => t.name)).toEqual([
      'mcp__alpha__echo',
      'mcp__alpha__add',
    ]);
    // Pending discovery: not complete, though every discovered server is.
    expect({ complete: catalog.complete, documentComplete: catalog.document.complete }).toEqual({
      complete: false,
      documentComplete: true,
    });
  });

  it("mounts only the definition's allowTools, whatever tools the snapshot carries", () => {
    const catalog = buildWorkspaceCatalog({
      workspaceId: WORKSPACE,
      principalUserId: null,
      servers: [
        {
          server: { ...approved('gh'), allowTools: ['get_issue', 'close_issue'] },
          snapshot: chosen(serverCatalog('gh', ['get_issue', 'delete_repo'])),
        },
      ],
    });
    expect(workspaceCatalog.parse(catalog)).toEqual(catalog);
    const [server] = catalog.document.servers;
    expect(server?.tools.map((tool) => [tool.name, tool.remoteName])).toEqual([
      ['mcp__gh__get_issue', 'get_issue'],
    ]);
    expect(server?.diagnostics).toContainEqual({
      code: 'allow_tools_unlisted',
      server: 'gh',
      tool: 'close_issue',
    });
  });

  it("carries the API's source, not the one the snapshot reported", () => {
    const catalog = buildWorkspaceCatalog({
      workspaceId: WORKSPACE,
      principalUserId: null,
      servers: [{ server: approved('alpha'), snapshot: chosen(serverCatalog('alpha', ['echo'])) }],
    });
    const server = catalog.document.servers[0];
    expect(server?.source).toEqual(resolved);
    expect(server?.tools[0]?.source).toEqual(resolved);
    expect(JSON.stringify(catalog)).not.toContain('claimed-by-worker');
  });

  it('lists an omitted server with its identity but without content, and is then incomplete', () => {
    const catalog = buildWorkspaceCatalog({
      workspaceId: WORKSPACE,
      principalUserId: null,
      servers: [
        { server: approved('alpha'), snapshot: chosen(serverCatalog('alpha', ['echo'])) },
        {
          server: approved('beta'),
          snapshot: chosen(serverCatalog('beta', ['big'], { stale: true }), false),
        },
      ],
    });
    expect(catalog.servers[1]).toMatchObject({ state: 'omitted', stale: true, identity: { server: 'beta' } });
    expect(catalog.document.servers).toHaveLength(1);
    expect({ complete: catalog.complete, stale: catalog.stale }).toEqual({ complete: false, stale: true });
  });

  it('gives the same catalog for the same input, whatever order the servers come in', () => {
    const servers = [
      { server: approved('beta'), snapshot: chosen(serverCatalog('beta', ['x'])) },
      { server: approved('alpha'), snapshot: chosen(serverCatalog('alpha', ['y'])) },
    ];
    const one = buildWorkspaceCatalog({ workspaceId: WORKSPACE, principalUserId: null, servers });
    const two = buildWorkspaceCatalog({
      workspaceId: WORKSPACE,
      principalUserId: null,
      servers: [...servers].reverse(),
    });
    expect(JSON.stringify(two)).toBe(JSON.stringify(one));
  });
});
