import { catalogDocument } from '@gatehouse/contracts';
import { assembleCatalogDocument } from './catalog-document-assembler';
import { applyCatalogOptions, type CatalogOptions } from './catalog-options-applier';
import { buildServerCatalog } from './server-catalog-builder';

const options: CatalogOptions = {
  allowTools: ['read_file', 'search'],
  toolAxes: { read_file: { effect: 'read', egress: false }, search: { effect: 'read' } },
  toolFaces: { read_file: { pathTarget: { param: 'path' } } },
  contentOrigin: 'local',
};

function built(withOptions: CatalogOptions) {
  return buildServerCatalog({
    identity: { server: 'fs', protocolVersion: '2025-11-25', serverVersion: '1.0.0' },
    source: { tier: 'managed', origin: 'managed:org' },
    options: withOptions,
    tools: [
      { name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
      { name: 'search', inputSchema: { type: 'object' }, narrowedPaths: ['/properties/q'] },
      { name: 'delete_repo', inputSchema: { type: 'object' }, narrowedPaths: ['/properties/force'] },
    ],
    complete: true,
    stale: false,
    fetchedAt: '2026-12-01T10:00:00.000Z',
  });
}

describe('applyCatalogOptions', () => {
  it('gives what the builder gives with the options, applied to a catalog built without them', () => {
    expect(applyCatalogOptions(built({}), options)).toEqual(built(options));
  });

  it('is idempotent, and applying none again undoes what options said', () => {
    const once = built(options);
    expect(applyCatalogOptions(once, options)).toEqual(once);
    // Without allowTools every tool stays, so applying none gives the bare catalog back.
    const declared = built({
      toolAxes: options.toolAxes!,
      toolFaces: options.toolFaces!,
      contentOrigin: 'local',
    });
    expect(declared.tools[0]).toMatchObject({ axes: { effect: 'read' }, face: {}, contentOrigin: 'local' });
    expect(applyCatalogOptions(declared, {})).toEqual(built({}));
  });

  it('says nothing about a tool outside allowTools, not even how its schema was narrowed', () => {
    const catalog = built(options);
    expect(catalog.tools.map((tool) => tool.remoteName)).toEqual(['read_file', 'search']);
    expect(JSON.stringify(catalog)).not.toContain('delete_repo');
    expect(catalog.diagnostics).toEqual([
      { code: 'schema_narrowed', server: 'fs', tool: 'search', paths: ['/properties/q'] },
      { code: 'tool_axes_contradiction', server: 'fs', tool: 'search' },
    ]);
    expect(catalogDocument.safeParse(assembleCatalogDocument([catalog])).error).toBeUndefined();
  });
});
