import type {
  CatalogDiagnostic,
  CatalogDocumentV1,
  CatalogEntryKind,
  CatalogPrompt,
  CatalogResource,
  CatalogResourceTemplate,
  CatalogTool,
  ServerCatalogV1,
} from '@gatehouse/contracts';
import { baseName, mintNames } from './mcp-name-minter';
import type { UnnamedServerCatalog } from './catalog-options-applier';

interface Named {
  readonly remoteName: string;
  readonly name?: string;
}

function mintKind<T extends Named>(
  kind: CatalogEntryKind,
  servers: readonly { readonly server: string; readonly entries: readonly T[] }[],
  diagnostics: CatalogDiagnostic[],
): (T & { name: string })[][] {
  const requests = servers.flatMap((s) => s.entries.map((e) => ({ server: s.server, remote: e.remoteName })));
  const minted = mintNames(requests);
  for (const c of minted.collisions) {
    const diagnostic: CatalogDiagnostic = {
      code: 'name_collision',
      kind,
      server: c.server,
      remoteName: c.remote,
      winner: { server: c.winner.server, remoteName: c.winner.remote },
      resolution: c.resolution,
    };
    diagnostics.push(c.name === undefined ? diagnostic : { ...diagnostic, name: c.name });
  }
  let at = 0;
  return servers.map((s) => {
    const out: (T & { name: string })[] = [];
    for (const entry of s.entries) {
      const name = minted.names[at];
      at += 1;
      if (name !== null && name !== undefined) out.push({ ...entry, name });
    }
    return out;
  });
}

/** A resource is addressed by its URI: the first server (in name order) to list one keeps it. */
function byUri<T extends Named>(
  kind: 'resource' | 'resource_template',
  servers: readonly { readonly server: string; readonly entries: readonly T[] }[],
  uriOf: (entry: T) => string,
  diagnostics: CatalogDiagnostic[],
): (T & { name: string })[][] {
  const owner = new Map<string, string>();
  return servers.map((s) => {
    const out: (T & { name: string })[] = [];
    for (const entry of s.entries) {
      const uri = uriOf(entry);
      const winner = owner.get(uri);
      if (winner !== undefined) {
        diagnostics.push({
          code: 'uri_collision',
          kind,
          server: s.server,
          remoteName: entry.remoteName,
          winnerServer: winner,
        });
        continue;
      }
      owner.set(uri, s.server);
      out.push({ ...entry, name: baseName(s.server, entry.remoteName).name });
    }
    return out;
  });
}

/**
 * Assembles server catalogs (fresh from buildServerCatalog, or taken from stored documents) into one document:
 * the snapshot of one server, or the catalog of a workspace that the gateway serves. Tool and prompt names are
 * minted across every server of the document (mintNames: collision-free, losers renamed or dropped, each
 * reported); resources and templates get namespaced names too but are addressed by URI, so a URI two servers
 * list is kept by the first server in name order. Names already on the input are ignored: minting depends only
 * on the servers present. The order of the input does not matter.
 *
 * Throws on two catalogs of one server: that is a caller's bug, not an outcome.
 */
export function assembleCatalogDocument(
  catalogs: readonly (UnnamedServerCatalog | ServerCatalogV1)[],
): CatalogDocumentV1 {
  const sorted = [...catalogs].sort((a, b) =>
    a.identity.server < b.identity.server ? -1 : a.identity.server > b.identity.server ? 1 : 0,
  );
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i]?.identity.server === sorted[i - 1]?.identity.server) {
      throw new Error('assembleCatalogDocument: two catalogs of one server');
    }
  }
  const diagnostics: CatalogDiagnostic[] = [];
  const of = <T>(pick: (c: UnnamedServerCatalog | ServerCatalogV1) => readonly T[]) =>
    sorted.map((c) => ({ server: c.identity.server, entries: pick(c) }));
  const tools = mintKind<Omit<CatalogTool, 'name'> & Named>(
    'tool',
    of((c) => c.tools),
    diagnostics,
  );
  const prompts = mintKind<Omit<CatalogPrompt, 'name'> & Named>(
    'prompt',
    of((c) => c.prompts),
    diagnostics,
  );
  const resources = byUri<Omit<CatalogResource, 'name'> & Named>(
    'resource',
    of((c) => c.resources),
    (r) => r.uri,
    diagnostics,
  );
  const templates = byUri<Omit<CatalogResourceTemplate, 'name'> & Named>(
    'resource_template',
    of((c) => c.resourceTemplates),
    (r) => r.uriTemplate,
    diagnostics,
  );
  const servers: ServerCatalogV1[] = sorted.map((c, i) => ({
    ...c,
    tools: tools[i] ?? [],
    prompts: prompts[i] ?? [],
    resources: resources[i] ?? [],
    resourceTemplates: templates[i] ?? [],
    diagnostics: [...c.diagnostics],
  }));
  return {
    v: 1,
    complete: servers.every((s) => s.complete),
    stale: servers.some((s) => s.stale),
    servers,
    diagnostics,
  };
}
