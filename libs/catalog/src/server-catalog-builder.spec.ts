import { catalogDocument } from '@gatehouse/contracts';
import { assembleCatalogDocument } from './catalog-document-assembler';
import { buildServerCatalog, type ServerListing } from './server-catalog-builder';

const source = { tier: 'project', origin: 'project:ws-1' } as const;
const writeSchema = {
  type: 'object',
  properties: { path: { type: 'string' }, content: { type: 'string' }, mode: { enum: ['a', 'w'] } },
  required: ['path', 'content'],
};

function listing(overrides: Partial<ServerListing> = {}): ServerListing {
  return {
    identity: { server: 'fs', protocolVersion: '2025-11-25', serverVersion: '0.6.2' },
    source,
    options: {},
    tools: [
      { name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
      {
        name: 'write_file',
        inputSchema: writeSchema,
        annotations: { destructiveHint: true, readOnlyHint: true },
      },
    ],
    complete: true,
    stale: false,
    fetchedAt: '2026-12-01T10:00:00.000Z',
    ...overrides,
  };
}

function build(overrides: Partial<ServerListing> = {}) {
  const catalog = buildServerCatalog(listing(overrides));
  const document = assembleCatalogDocument([catalog]);
  expect(catalogDocument.safeParse(document).error).toBeUndefined();
  return { catalog, document, server: document.servers[0] };
}

describe('buildServerCatalog', () => {
  it('mounts every tool fail-closed, names it, echoes its source and the server content origin', () => {
    const { server } = build();
    expect(server?.tools).toEqual([
      {
        name: 'mcp__fs__read_file',
        remoteName: 'read_file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
        axes: { effect: 'write', egress: true },
        axesFrom: { effect: 'default', egress: 'default', irreversibility: 'absent' },
        contentOrigin: 'external',
        source,
      },
      expect.objectContaining({
        name: 'mcp__fs__write_file',
        axes: { effect: 'write', egress: true, irreversibility: 'always' },
        serverHints: { destructiveHint: true, readOnlyHint: true },
      }),
    ]);
    expect(server).toMatchObject({
      contentOrigin: 'external',
      contentOriginDeclared: false,
      diagnostics: [],
    });
  });

  it('applies allowTools and reports a member the listing lacks', () => {
    const { server } = build({ options: { allowTools: ['read_file', 'delete_file'] } });
    expect(server?.tools.map((t) => t.remoteName)).toEqual(['read_file']);
    expect(server?.diagnostics).toEqual([
      { code: 'allow_tools_unlisted', server: 'fs', tool: 'delete_file' },
    ]);
    expect(build({ options: { allowTools: [] } }).server?.tools).toEqual([]);
  });

  it('folds toolAxes and reports undeclared keys and contradictions', () => {
    const { server } = build({
      options: {
        toolAxes: {
          read_file: { effect: 'read', egress: false },
          write_file: { effect: 'idempotent' },
          gone: {},
        },
      },
    });
    expect(server?.tools.map((t) => t.axes)).toEqual([
      { effect: 'read', egress: false },
      { effect: 'write', egress: true, irreversibility: 'always' },
    ]);
    expect(server?.diagnostics).toEqual([
      { code: 'tool_axes_undeclared', server: 'fs', tool: 'gone' },
      { code: 'tool_axes_contradiction', server: 'fs', tool: 'write_file' },
    ]);
  });

  it('applies a face that fits whole, and none of one that does not, with one diagnostic each', () => {
    const { server } = build({
      options: {
        toolFaces: {
          write_file: { family: 'file-write', pathTarget: { param: 'path' }, ruleFace: { keys: ['mode'] } },
          read_file: {
            renderHints: { displayName: 'Read' },
            pathTarget: { param: 'file' },
            ruleFace: { keys: ['x'] },
          },
          move_file: { family: 'file-write' },
        },
      },
    });
    expect(server?.tools[1]?.face).toEqual({
      family: 'file-write',
      pathTarget: { param: 'path' },
      ruleFace: { keys: ['mode'] },
    });
    expect(server?.tools[0]).not.toHaveProperty('face');
    expect(server?.diagnostics).toEqual([
      { code: 'tool_face_undeclared', server: 'fs', tool: 'move_file' },
      {
        code: 'tool_face_invalid',
        server: 'fs',
        tool: 'read_file',
        problems: [
          { path: ['pathTarget', 'param'], problem: 'not_a_property' },
          { path: ['ruleFace', 'keys', 0], problem: 'not_a_property' },
        ],
      },
    ]);
  });

  it('judges faces against each listing: a refresh whose schema lost the property drops the face', () => {
    const toolFaces = { write_file: { pathTarget: { param: 'path' } } };
    expect(build({ options: { toolFaces } }).server?.tools[1]?.face).toEqual({
      pathTarget: { param: 'path' },
    });
    const refreshed = build({
      options: { toolFaces },
      tools: [
        { name: 'write_file', inputSchema: { type: 'object', properties: { target: { type: 'string' } } } },
      ],
    });
    expect(refreshed.server?.tools[0]).not.toHaveProperty('face');
    expect(refreshed.server?.diagnostics).toEqual([expect.objectContaining({ code: 'tool_face_invalid' })]);
  });

  it('carries a declared content origin on the server and every tool', () => {
    const { server } = build({ options: { contentOrigin: 'local' } });
    expect(server).toMatchObject({ contentOrigin: 'local', contentOriginDeclared: true });
    expect(server?.tools.every((t) => t.contentOrigin === 'local')).toBe(true);
  });

  it('reports unusable and repeated remote names, keeping the first', () => {
    const { server } = build({
      tools: [
        { name: '', inputSchema: {} },
        { name: 'a', inputSchema: { type: 'object' } },
        { name: 'a', inputSchema: { type: 'string' } },
        { name: 'x'.repeat(1025), inputSchema: {} },
      ],
    });
    expect(server?.tools.map((t) => [t.remoteName, t.inputSchema])).toEqual([['a', { type: 'object' }]]);
    expect(server?.diagnostics).toEqual([
      { code: 'invalid_remote_name', kind: 'tool', server: 'fs', index: 0 },
      { code: 'duplicate_remote_name', kind: 'tool', server: 'fs', remoteName: 'a' },
      { code: 'invalid_remote_name', kind: 'tool', server: 'fs', index: 3 },
    ]);
  });

  it('is never complete when a capability failed, and carries narrowing once per tool', () => {
    const { server, document } = build({
      tools: [{ name: 'q', inputSchema: { type: 'object' }, narrowedPaths: ['/properties/filter'] }],
      failures: [
        { capability: 'prompts', reason: 'invalid_cursor' },
        { capability: 'resources', reason: 'Some Text' },
      ],
    });
    expect(server?.complete).toBe(false);
    expect(document.complete).toBe(false);
    expect(server?.diagnostics).toEqual([
      { code: 'schema_narrowed', server: 'fs', tool: 'q', paths: ['/properties/filter'] },
      { code: 'listing_failed', server: 'fs', capability: 'prompts', reason: 'invalid_cursor' },
      { code: 'listing_failed', server: 'fs', capability: 'resources', reason: 'unclassified' },
    ]);
  });

  it('namespaces prompts and resources the same way, echoing their source', () => {
    const { server } = build({
      prompts: [{ name: 'review.code', arguments: [{ name: 'lang', required: true }] }],
      resources: [{ uri: 'file:///README.md', name: 'README', mimeType: 'text/markdown' }],
      resourceTemplates: [{ uriTemplate: 'file:///{path}', name: 'file' }],
    });
    expect(server?.prompts).toEqual([
      {
        name: 'mcp__fs__review_code',
        remoteName: 'review.code',
        arguments: [{ name: 'lang', required: true }],
        source,
      },
    ]);
    expect(server?.resources).toEqual([
      {
        name: 'mcp__fs__README',
        remoteName: 'README',
        uri: 'file:///README.md',
        mimeType: 'text/markdown',
        source,
      },
    ]);
    expect(server?.resourceTemplates).toEqual([
      { name: 'mcp__fs__file', remoteName: 'file', uriTemplate: 'file:///{path}', source },
    ]);
  });
});
