import {
  MAX_REMOTE_NAME_LENGTH,
  type CatalogCapability,
  type CatalogDiagnostic,
  type CatalogEntryKind,
  type CatalogIdentity,
  type CatalogPrompt,
  type CatalogSource,
  type CatalogTool,
  type CatalogToolServerHints,
} from '@gatehouse/contracts';
import {
  applyCatalogOptions,
  type CatalogOptions,
  type UnnamedServerCatalog,
} from './catalog-options-applier';
import { foldToolAxes } from './tool-axes-fold';

export type { CatalogOptions, UnnamedServerCatalog } from './catalog-options-applier';

/** A JSON object as the catalog document carries it (a tool's input or output schema). */
export type JsonObject = CatalogTool['inputSchema'];

/**
 * One tool as discovery hands it over: the server's listing after schema narrowing (libs/mcp-client). Only what
 * the catalog reads; a discovery result with more members fits.
 */
export interface ListedTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The MATERIALIZED (narrowed) input schema: faces are judged against it. */
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: {
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: boolean;
  };
  /** The paths narrowing replaced with accept-anything nodes. */
  readonly narrowedPaths?: readonly string[];
}

export interface ListedPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly {
    readonly name: string;
    readonly description?: string;
    readonly required?: boolean;
  }[];
}

export interface ListedResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export interface ListedResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** One server's listing: what discovery found, under which identity, and what it could not list. */
export interface ServerListing {
  readonly identity: CatalogIdentity;
  readonly source: CatalogSource;
  readonly options: CatalogOptions;
  /** Absent when the server did not declare the capability (its list method is never called). */
  readonly tools?: readonly ListedTool[];
  readonly prompts?: readonly ListedPrompt[];
  readonly resources?: readonly ListedResource[];
  readonly resourceTemplates?: readonly ListedResourceTemplate[];
  /** Capabilities whose listing failed, with discovery's reason code (`invalid_cursor`, `page_bound`...). */
  readonly failures?: readonly { readonly capability: CatalogCapability; readonly reason: string }[];
  /** Discovery drained every declared capability to its last page. */
  readonly complete: boolean;
  /** This is the last good listing, kept after a refresh failed. */
  readonly stale: boolean;
  /** ISO 8601, when the listing was taken (the caller's clock: this lib reads none). */
  readonly fetchedAt: string;
}

/** The shape of a discovery reason code the document carries; any other word is carried as `unclassified`. */
const REASON_CODE = /^[a-z][a-z0-9_]{0,63}$/;

type Unnamed<T> = Omit<T, 'name'> & { readonly name?: string };

/** Entries with an unusable name are reported by index; a repeated name keeps its first entry. */
function usable<T>(
  kind: CatalogEntryKind,
  server: string,
  entries: readonly T[] | undefined,
  keyOf: (entry: T) => string,
  nameOf: (entry: T) => string,
  diagnostics: CatalogDiagnostic[],
): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  (entries ?? []).forEach((entry, index) => {
    const name = nameOf(entry);
    if (name.length === 0 || name.length > MAX_REMOTE_NAME_LENGTH) {
      diagnostics.push({ code: 'invalid_remote_name', kind, server, index });
      return;
    }
    const key = keyOf(entry);
    if (seen.has(key)) {
      if (kind === 'resource' || kind === 'resource_template') {
        diagnostics.push({ code: 'uri_collision', kind, server, remoteName: name, winnerServer: server });
      } else {
        diagnostics.push({ code: 'duplicate_remote_name', kind, server, remoteName: name });
      }
      return;
    }
    seen.add(key);
    kept.push(entry);
  });
  return kept;
}

function hintsOf(tool: ListedTool): CatalogToolServerHints | undefined {
  const a = tool.annotations;
  if (a === undefined) return undefined;
  const hints: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  } = {};
  if (typeof a.readOnlyHint === 'boolean') hints.readOnlyHint = a.readOnlyHint;
  if (typeof a.destructiveHint === 'boolean') hints.destructiveHint = a.destructiveHint;
  if (typeof a.idempotentHint === 'boolean') hints.idempotentHint = a.idempotentHint;
  if (typeof a.openWorldHint === 'boolean') hints.openWorldHint = a.openWorldHint;
  return Object.keys(hints).length > 0 ? hints : undefined;
}

function withText<T extends object>(
  target: T,
  from: { readonly title?: string; readonly description?: string },
): T & { title?: string; description?: string } {
  const out: T & { title?: string; description?: string } = target;
  if (typeof from.title === 'string') out.title = from.title;
  if (typeof from.description === 'string') out.description = from.description;
  return out;
}

/**
 * Builds one server's catalog from a listing, at every listing (first mount and every refresh): every usable
 * tool with the server's hints, then the listing's options applied by applyCatalogOptions (`allowTools`,
 * `toolAxes` folded fail-closed, `toolFaces` judged against the materialized schema, `contentOrigin`), the same
 * function the API applies to stored snapshots. The source is echoed on every entry. A catalog is complete only
 * when discovery said so and no capability failed. Names are minted by assembleCatalogDocument, across every
 * server of the document. Pure: the same listing always builds the same catalog.
 */
export function buildServerCatalog(listing: ServerListing): UnnamedServerCatalog {
  const server = listing.identity.server;
  const source = { tier: listing.source.tier, origin: listing.source.origin };
  const diagnostics: CatalogDiagnostic[] = [];

  const listed = usable(
    'tool',
    server,
    listing.tools,
    (t) => t.name,
    (t) => t.name,
    diagnostics,
  );
  const tools: Unnamed<CatalogTool>[] = [];
  for (const tool of listed) {
    const hints = hintsOf(tool);
    // Fail closed until the options are applied below (they decide the axes and the content origin).
    const folded = foldToolAxes(undefined, hints);
    const entry: Unnamed<CatalogTool> & { outputSchema?: JsonObject; serverHints?: CatalogToolServerHints } =
      withText(
        {
          remoteName: tool.name,
          inputSchema: tool.inputSchema,
          axes: folded.axes,
          axesFrom: folded.from,
          contentOrigin: 'external' as const,
          source,
        },
        tool,
      );
    if (tool.outputSchema !== undefined) entry.outputSchema = tool.outputSchema;
    if (hints !== undefined) entry.serverHints = hints;
    if (tool.narrowedPaths !== undefined && tool.narrowedPaths.length > 0) {
      diagnostics.push({ code: 'schema_narrowed', server, tool: tool.name, paths: [...tool.narrowedPaths] });
    }
    tools.push(entry);
  }

  const prompts = usable(
    'prompt',
    server,
    listing.prompts,
    (p) => p.name,
    (p) => p.name,
    diagnostics,
  ).map((prompt) => {
    const entry: Unnamed<CatalogPrompt> = withText({ remoteName: prompt.name, source }, prompt);
    if (prompt.arguments !== undefined) {
      (entry as { arguments?: CatalogPrompt['arguments'] }).arguments = prompt.arguments.map((arg) => {
        const out: { name: string; description?: string; required?: boolean } = { name: arg.name };
        if (typeof arg.description === 'string') out.description = arg.description;
        if (typeof arg.required === 'boolean') out.required = arg.required;
        return out;
      });
    }
    return entry;
  });
  const withMime = <T extends object>(target: T, mimeType: string | undefined): T => {
    if (typeof mimeType === 'string') (target as { mimeType?: string }).mimeType = mimeType;
    return target;
  };
  const resources = usable(
    'resource',
    server,
    listing.resources,
    (r) => r.uri,
    (r) => r.name,
    diagnostics,
  ).map((r) => withMime(withText({ remoteName: r.name, uri: r.uri, source }, r), r.mimeType));
  const resourceTemplates = usable(
    'resource_template',
    server,
    listing.resourceTemplates,
    (r) => r.uriTemplate,
    (r) => r.name,
    diagnostics,
  ).map((r) => withMime(withText({ remoteName: r.name, uriTemplate: r.uriTemplate, source }, r), r.mimeType));

  const failures = listing.failures ?? [];
  for (const failure of failures) {
    const reason = REASON_CODE.test(failure.reason) ? failure.reason : 'unclassified';
    diagnostics.push({ code: 'listing_failed', server, capability: failure.capability, reason });
  }
  const identity = {
    server,
    protocolVersion: listing.identity.protocolVersion,
    ...(listing.identity.protocolEra === undefined ? {} : { protocolEra: listing.identity.protocolEra }),
    serverVersion: listing.identity.serverVersion,
  };
  const bare: UnnamedServerCatalog = {
    identity,
    source,
    contentOrigin: 'external',
    contentOriginDeclared: false,
    complete: listing.complete && failures.length === 0,
    stale: listing.stale,
    fetchedAt: listing.fetchedAt,
    tools,
    prompts,
    resources,
    resourceTemplates,
    diagnostics,
  };
  return applyCatalogOptions(bare, listing.options);
}
