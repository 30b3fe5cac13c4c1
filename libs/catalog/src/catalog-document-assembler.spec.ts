import { catalogDocument, MINTED_NAME_PATTERN } from '@gatehouse/contracts';
import fc from 'fast-check';
import { assembleCatalogDocument } from './catalog-document-assembler';
import { indexCatalogTools, sameCatalogIdentity } from './catalog-identity';
import { hashedName } from './mcp-name-minter';
import { buildServerCatalog, type ServerListing } from './server-catalog-builder';

function serverListing(
  server: string,
  tools: string[],
  overrides: Partial<ServerListing> = {},
): ServerListing {
  return {
    identity: { server, protocolVersion: '2025-11-25', serverVersion: '1.0.0' },
    source: { tier: 'managed', origin: 'managed:org-policy' },
    options: {},
    tools: tools.map((name) => ({ name, inputSchema: { type: 'object' } })),
    complete: true,
    stale: false,
    fetchedAt: '2026-12-01T10:00:00.000Z',
    ...overrides,
  };
}

const catalogOf = (server: string, tools: string[], overrides: Partial<ServerListing> = {}) =>
  buildServerCatalog(serverListing(server, tools, overrides));

describe('assembleCatalogDocument', () => {
  it('mints names across servers, reports the loser, and does not depend on input order', () => {
    const a = catalogOf('a', ['b__c']);
    const ab = catalogOf('a__b', ['c']);
    const doc = assembleCatalogDocument([ab, a]);
    expect(catalogDocument.safeParse(doc).error).toBeUndefined();
    expect(doc.servers.map((s) => s.identity.server)).toEqual(['a', 'a__b']);
    expect(doc.servers[0]?.tools[0]?.name).toBe('mcp__a__b__c');
    expect(doc.servers[1]?.tools[0]?.name).toBe(hashedName('a__b', 'c'));
    expect(doc.diagnostics).toEqual([
      {
        code: 'name_collision',
        kind: 'tool',
        server: 'a__b',
        remoteName: 'c',
        winner: { server: 'a', remoteName: 'b__c' },
        resolution: 'renamed',
        name: hashedName('a__b', 'c'),
      },
    ]);
    expect(assembleCatalogDocument([a, ab])).toEqual(doc);
  });

  it('re-mints from stored documents: a snapshot of one server joins a workspace document', () => {
    const snapshot = assembleCatalogDocument([catalogOf('fs', ['read.file'])]);
    expect(snapshot.servers[0]?.tools[0]?.name).toBe('mcp__fs__read_file');
    const other = catalogOf('fs2', ['x']);
    const workspace = assembleCatalogDocument([...snapshot.servers, other]);
    expect(workspace.servers.flatMap((s) => s.tools.map((t) => t.name))).toEqual([
      'mcp__fs__read_file',
      'mcp__fs2__x',
    ]);
    expect(catalogDocument.safeParse(workspace).error).toBeUndefined();
  });

  it('keeps a resource URI for the first server in name order and reports the other', () => {
    const resources = [{ uri: 'file:///README.md', name: 'README' }];
    const doc = assembleCatalogDocument([
      catalogOf('zeta', [], { resources }),
      catalogOf('alpha', [], { resources }),
    ]);
    expect(doc.servers.map((s) => s.resources.length)).toEqual([1, 0]);
    expect(doc.diagnostics).toEqual([
      {
        code: 'uri_collision',
        kind: 'resource',
        server: 'zeta',
        remoteName: 'README',
        winnerServer: 'alpha',
      },
    ]);
  });

  it('is complete only when every server is, stale when any is', () => {
    const doc = assembleCatalogDocument([
      catalogOf('a', ['t']),
      catalogOf('b', ['t'], { complete: false, stale: true }),
    ]);
    expect(doc).toMatchObject({ complete: false, stale: true });
    expect(assembleCatalogDocument([])).toEqual({
      v: 1,
      complete: true,
      stale: false,
      servers: [],
      diagnostics: [],
    });
  });

  it('refuses two catalogs of one server as a bug', () => {
    expect(() => assembleCatalogDocument([catalogOf('a', []), catalogOf('a', [])])).toThrow('two catalogs');
  });

  it('indexes tools by minted name for routing', () => {
    const doc = assembleCatalogDocument([catalogOf('a', ['t1', 't2']), catalogOf('b', ['t1'])]);
    const index = indexCatalogTools(doc);
    expect([...index.keys()]).toEqual(['mcp__a__t1', 'mcp__a__t2', 'mcp__b__t1']);
    expect(index.get('mcp__b__t1')).toMatchObject({
      server: { identity: { server: 'b' } },
      tool: { remoteName: 't1' },
    });
  });
});

describe('assembleCatalogDocument properties', () => {
  it('serves collision-free tool names in the format, every listed tool mounted or reported, in any order', () => {
    const serverName = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,40}$/);
    const toolName = fc.oneof(
      fc.stringMatching(/^[a-c._ -]{1,4}$/),
      fc.string({ minLength: 1, maxLength: 90 }),
    );
    const servers = fc.uniqueArray(
      fc.record({ server: serverName, tools: fc.uniqueArray(toolName, { maxLength: 8 }) }),
      {
        maxLength: 5,
        selector: (s) => s.server,
      },
    );
    fc.assert(
      fc.property(servers, (list) => {
        const catalogs = list.map((s) => catalogOf(s.server, s.tools));
        const doc = assembleCatalogDocument(catalogs);
        expect(catalogDocument.safeParse(doc).error).toBeUndefined();
        const names = doc.servers.flatMap((s) => s.tools.map((t) => t.name));
        for (const name of names) expect(name).toMatch(MINTED_NAME_PATTERN);
        expect(new Set(names).size).toBe(names.length);
        const dropped = doc.diagnostics.filter(
          (d) => d.code === 'name_collision' && d.resolution === 'dropped',
        );
        expect(names.length + dropped.length).toBe(list.reduce((n, s) => n + s.tools.length, 0));
        expect(assembleCatalogDocument([...catalogs].reverse())).toEqual(doc);
      }),
      { numRuns: 150 },
    );
  });
});

describe('sameCatalogIdentity', () => {
  const id = { server: 'a', protocolVersion: '2025-11-25', serverVersion: '1.0.0' };
  it('binds a catalog to server, negotiated protocol version and server version', () => {
    expect(sameCatalogIdentity(id, { ...id })).toBe(true);
    expect(sameCatalogIdentity(id, { ...id, serverVersion: '1.0.1' })).toBe(false);
    expect(sameCatalogIdentity(id, { ...id, protocolVersion: '2025-06-18' })).toBe(false);
    expect(sameCatalogIdentity(id, { ...id, server: 'b' })).toBe(false);
  });
});
