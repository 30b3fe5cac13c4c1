import { workspaceCatalog, type ServerCatalogV1 } from '@gatehouse/contracts';
import { buildWorkspaceCatalog, type ChosenCatalogSnapshot } from './workspace-catalog-builder';

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

  it('carries a reported discovery failure on a pending server only, and nothing when none was reported', () => {
    const failure = {
      failureClass: 'protocol' as const,
      reason: 'protocol_version_refused' as const,
      detail: 'the server refused every protocol version we speak',
      at: '2026-12-02T12:00:00.000Z',
    };
    const catalog = buildWorkspaceCatalog({
      workspaceId: WORKSPACE,
      principalUserId: null,
      servers: [
        { server: approved('refusing'), snapshot: null, discoveryFailure: failure },
        { server: approved('quiet'), snapshot: null, discoveryFailure: null },
        // A snapshot of the key answers any failure: a discovered server never shows one.
        {
          server: approved('alpha'),
          snapshot: chosen(serverCatalog('alpha', ['echo'])),
          discoveryFailure: failure,
        },
      ],
    });
    expect(workspaceCatalog.parse(catalog)).toEqual(catalog);
    const byName = new Map(catalog.servers.map((s) => [s.name, s]));
    expect(byName.get('refusing')).toMatchObject({ state: 'pending_discovery', discoveryFailure: failure });
    expect(byName.get('quiet')).not.toHaveProperty('discoveryFailure');
    expect(byName.get('alpha')).not.toHaveProperty('discoveryFailure');
  });

  it("mounts only the definition's allowTools, whatever tools the snapshot carries", () => {
    const catalog = buildWorkspaceCatalog({
      workspaceId: WORKSPACE,
      principalUserId: null,
      servers: [
        {
          server: { ...approved('gh'), options: { allowTools: ['get_issue', 'close_issue'] } },
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

  it("applies the definition's axes, faces and content origin to the snapshot, whatever it claimed", () => {
    // A snapshot whose producer claimed what the definition does not say: a caller axis, a face, a content origin.
    const claimed = serverCatalog('fs', ['read_file', 'write_file']);
    const lying: ServerCatalogV1 = {
      ...claimed,
      contentOrigin: 'local',
      contentOriginDeclared: true,
      tools: claimed.tools.map((tool) =>
        tool.remoteName === 'write_file'
          ? {
              ...tool,
              inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
              serverHints: { destructiveHint: true },
              axes: { effect: 'read', egress: false },
              axesFrom: { effect: 'caller', egress: 'caller', irreversibility: 'absent' },
              face: { family: 'file-write', pathTarget: { param: 'path' } },
              contentOrigin: 'local',
            }
          : tool,
      ),
      diagnostics: [{ code: 'tool_axes_contradiction', server: 'fs', tool: 'read_file' }],
    };
    const build = (
      options?: Parameters<typeof buildWorkspaceCatalog>[0]['servers'][number]['server']['options'],
    ) => {
      const catalog = buildWorkspaceCatalog({
        workspaceId: WORKSPACE,
        principalUserId: null,
        servers: [
          { server: { ...approved('fs'), ...(options ? { options } : {}) }, snapshot: chosen(lying) },
        ],
      });
      expect(workspaceCatalog.parse(catalog)).toEqual(catalog);
      return catalog.document.servers[0];
    };

    // The definition declares none: fail closed, the server's destructive hint kept, no face, external.
    const undeclared = build();
    expect(undeclared).toMatchObject({
      contentOrigin: 'external',
      contentOriginDeclared: false,
      diagnostics: [],
    });
    expect(undeclared?.tools.map((tool) => [tool.remoteName, tool.axes, tool.contentOrigin])).toEqual([
      ['read_file', { effect: 'write', egress: true }, 'external'],
      ['write_file', { effect: 'write', egress: true, irreversibility: 'always' }, 'external'],
    ]);
    expect(undeclared?.tools[1]).not.toHaveProperty('face');

    // The definition declares them: applied from the listing the snapshot carries.
    const declared = build({
      toolAxes: { read_file: { effect: 'read', egress: false }, gone: { effect: 'read' } },
      toolFaces: {
        write_file: { family: 'file-write', pathTarget: { param: 'path' } },
        read_file: { pathTarget: { param: 'nope' } },
      },
      contentOrigin: 'execution',
    });
    expect(declared).toMatchObject({ contentOrigin: 'execution', contentOriginDeclared: true });
    expect(
      declared?.tools.map((tool) => [tool.remoteName, tool.axes, tool.axesFrom.effect, tool.contentOrigin]),
    ).toEqual([
      ['read_file', { effect: 'read', egress: false }, 'caller', 'execution'],
      ['write_file', { effect: 'write', egress: true, irreversibility: 'always' }, 'default', 'execution'],
    ]);
    expect(declared?.tools[1]?.face).toEqual({ family: 'file-write', pathTarget: { param: 'path' } });
    expect(declared?.tools[0]).not.toHaveProperty('face');
    expect(declared?.diagnostics).toEqual([
      { code: 'tool_axes_undeclared', server: 'fs', tool: 'gone' },
      {
        code: 'tool_face_invalid',
        server: 'fs',
        tool: 'read_file',
        problems: [{ path: ['pathTarget', 'param'], problem: 'not_a_property' }],
      },
    ]);
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
