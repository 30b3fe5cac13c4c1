import { catalogDiagnostic, catalogDocument } from './catalog-document.schema';

const source = { tier: 'managed', origin: 'managed:org-policy' } as const;
const server = {
  identity: { server: 'github', protocolVersion: '2025-11-25', serverVersion: '1.2.3' },
  source,
  contentOrigin: 'external',
  contentOriginDeclared: false,
  complete: true,
  stale: false,
  fetchedAt: '2026-12-01T10:00:00.000Z',
  tools: [
    {
      name: 'mcp__github__get_issue',
      remoteName: 'get_issue',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      axes: { effect: 'write', egress: true },
      axesFrom: { effect: 'default', egress: 'default', irreversibility: 'absent' },
      contentOrigin: 'external',
      source,
    },
  ],
  prompts: [],
  resources: [],
  resourceTemplates: [],
  diagnostics: [{ code: 'tool_axes_undeclared', server: 'github', tool: 'gone' }],
};
const doc = { v: 1, complete: true, stale: false, servers: [server], diagnostics: [] };

describe('catalogDocument', () => {
  it('parses a version-1 document', () => {
    expect(catalogDocument.safeParse(doc).success).toBe(true);
  });

  it.each([
    ['an unknown version', { ...doc, v: 2 }],
    ['an unknown member', { ...doc, extra: true }],
    [
      'a minted name outside the format',
      { ...doc, servers: [{ ...server, tools: [{ ...server.tools[0], name: 'mcp__github__get.issue' }] }] },
    ],
    [
      'a minted name over 64 characters',
      { ...doc, servers: [{ ...server, tools: [{ ...server.tools[0], name: 'a'.repeat(65) }] }] },
    ],
    [
      'an effect outside the vocabulary',
      {
        ...doc,
        servers: [{ ...server, tools: [{ ...server.tools[0], axes: { effect: 'none', egress: true } }] }],
      },
    ],
    ['a server without an identity', { ...doc, servers: [{ ...server, identity: undefined }] }],
    ['a fetchedAt that is not a date-time', { ...doc, servers: [{ ...server, fetchedAt: 'yesterday' }] }],
  ])('refuses %s', (_label, value) => {
    expect(catalogDocument.safeParse(value).success).toBe(false);
  });

  it('tells diagnostics apart by code, including the codes that share a shape', () => {
    for (const code of ['tool_face_undeclared', 'tool_axes_undeclared', 'allow_tools_unlisted']) {
      expect(catalogDiagnostic.safeParse({ code, server: 's', tool: 't' }).success).toBe(true);
    }
    expect(catalogDiagnostic.safeParse({ code: 'no_such_code', server: 's', tool: 't' }).success).toBe(false);
    expect(
      catalogDiagnostic.safeParse({ code: 'tool_face_invalid', server: 's', tool: 't', problems: [] })
        .success,
    ).toBe(false);
  });
});
