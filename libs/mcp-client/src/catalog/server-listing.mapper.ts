import {
  assembleCatalogDocument,
  buildServerCatalog,
  type CatalogOptions,
  type JsonObject,
  type ListedTool,
  type ServerListing,
} from '@gatehouse/catalog';
import type { CatalogCapability, CatalogDocumentV1, CatalogSource } from '@gatehouse/contracts';
import type { DiscoveredTool, Discovery, ListKind } from '../discovery/catalog-discovery';
import type { SupervisedCatalog } from '../supervisor/connection-supervisor';

// Discovery's output as libs/catalog's ServerListing (the smallest shape the catalog reads, decision 0048):
// the narrowed schemas and their dropped paths, the server's hints, which lists were declared, which failed
// (with discovery's reason code), complete and stale as the supervisor holds them, and the identity the
// catalog is bound to. The catalog applies the options and mints the names.

export interface ListingContext {
  /** The server's name in the catalog (its definition's name): `mcp__<server>__<tool>`. Default: the identity's server id. */
  readonly server?: string;
  /** Where the server's definition came from (tier and origin), echoed on every entry. */
  readonly source: CatalogSource;
  /** The per-server options as their strict readers read them at decode. */
  readonly options?: CatalogOptions;
  /** ISO 8601: when the listing was taken. Default: now. */
  readonly fetchedAt?: string;
}

const CAPABILITY_OF: Readonly<Record<ListKind, CatalogCapability>> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resourceTemplates',
};

/**
 * A narrowed schema is built from a parsed JSON message (only objects, arrays, strings, numbers, booleans and
 * null), so it is a JSON object; the type only forgets that.
 */
const asJsonObject = (schema: object): JsonObject => schema as JsonObject;

function narrowedPathsByTool(discovery: Discovery): ReadonlyMap<string, readonly string[]> {
  const paths = new Map<string, readonly string[]>();
  for (const diagnostic of discovery.diagnostics) {
    if (diagnostic.kind === 'schema_narrowed') {
      paths.set(
        diagnostic.tool,
        diagnostic.dropped.map((d) => d.path),
      );
    }
  }
  return paths;
}

function listedTool(tool: DiscoveredTool, narrowed: readonly string[] | undefined): ListedTool {
  const out: {
    -readonly [K in keyof ListedTool]: ListedTool[K];
  } = { name: tool.name, inputSchema: asJsonObject(tool.inputSchema) };
  if (typeof tool.title === 'string') out.title = tool.title;
  if (typeof tool.description === 'string') out.description = tool.description;
  if (tool.outputSchema !== undefined) out.outputSchema = asJsonObject(tool.outputSchema);
  if (tool.annotations !== undefined) {
    const a = tool.annotations;
    out.annotations = {
      ...(typeof a.readOnlyHint === 'boolean' ? { readOnlyHint: a.readOnlyHint } : {}),
      ...(typeof a.destructiveHint === 'boolean' ? { destructiveHint: a.destructiveHint } : {}),
      ...(typeof a.idempotentHint === 'boolean' ? { idempotentHint: a.idempotentHint } : {}),
      ...(typeof a.openWorldHint === 'boolean' ? { openWorldHint: a.openWorldHint } : {}),
    };
  }
  if (narrowed !== undefined && narrowed.length > 0) out.narrowedPaths = narrowed;
  return out;
}

const text = (from: { readonly title?: unknown; readonly description?: unknown }) => ({
  ...(typeof from.title === 'string' ? { title: from.title } : {}),
  ...(typeof from.description === 'string' ? { description: from.description } : {}),
});

const mime = (from: { readonly mimeType?: unknown }) =>
  typeof from.mimeType === 'string' ? { mimeType: from.mimeType } : {};

/** One supervised catalog as the listing libs/catalog builds a server's catalog from. */
export function serverListingOf(catalog: SupervisedCatalog, context: ListingContext): ServerListing {
  const { discovery } = catalog;
  const declared = (kind: ListKind): boolean => discovery.lists[kind].state !== 'not_declared';
  const failures: { capability: CatalogCapability; reason: string }[] = [];
  for (const kind of Object.keys(CAPABILITY_OF) as ListKind[]) {
    const status = discovery.lists[kind];
    if (status.state === 'failed')
      failures.push({ capability: CAPABILITY_OF[kind], reason: status.failure.reason });
  }
  const narrowed = narrowedPathsByTool(discovery);
  return {
    identity: {
      server: context.server ?? catalog.identity.serverId,
      protocolVersion: catalog.identity.protocolVersion,
      ...(catalog.identity.protocolEra === undefined ? {} : { protocolEra: catalog.identity.protocolEra }),
      serverVersion: catalog.identity.serverVersion,
    },
    source: context.source,
    options: context.options ?? {},
    ...(declared('tools')
      ? { tools: discovery.tools.map((tool) => listedTool(tool, narrowed.get(tool.name))) }
      : {}),
    ...(declared('prompts')
      ? {
          prompts: discovery.prompts.map((prompt) => ({
            name: prompt.name,
            ...text(prompt),
            ...(prompt.arguments === undefined
              ? {}
              : {
                  arguments: prompt.arguments.map((arg) => ({
                    name: arg.name,
                    ...(typeof arg.description === 'string' ? { description: arg.description } : {}),
                    ...(typeof arg.required === 'boolean' ? { required: arg.required } : {}),
                  })),
                }),
          })),
        }
      : {}),
    ...(declared('resources')
      ? {
          resources: discovery.resources.map((r) => ({ uri: r.uri, name: r.name, ...text(r), ...mime(r) })),
        }
      : {}),
    ...(declared('resourceTemplates')
      ? {
          resourceTemplates: discovery.resourceTemplates.map((t) => ({
            uriTemplate: t.uriTemplate,
            name: t.name,
            ...text(t),
            ...mime(t),
          })),
        }
      : {}),
    failures,
    complete: catalog.complete,
    stale: catalog.stale,
    fetchedAt: context.fetchedAt ?? new Date().toISOString(),
  };
}

/** The catalog document of one supervised server (a snapshot): built with its options, names minted. */
export function catalogDocumentOf(catalog: SupervisedCatalog, context: ListingContext): CatalogDocumentV1 {
  return assembleCatalogDocument([buildServerCatalog(serverListingOf(catalog, context))]);
}
