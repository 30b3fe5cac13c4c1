import {
  MAX_REMOTE_NAME_LENGTH,
  type CatalogCapability,
  type CatalogDiagnostic,
  type CatalogEntryKind,
  type CatalogIdentity,
  type CatalogPrompt,
  type CatalogResource,
  type CatalogResourceTemplate,
  type CatalogSource,
  type CatalogTool,
  type CatalogToolFace,
  type CatalogToolServerHints,
  type ServerCatalogV1,
} from '@gatehouse/contracts';
import type { ContentOrigin } from './content-origin.reader';
import { foldToolAxes } from './tool-axes.fold';
import type { ToolAxes } from './tool-axes.reader';
import { checkToolFace } from './tool-face.validator';
import type { ToolFace, ToolFaces } from './tool-faces.reader';

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

/** The per-server options the catalog applies (as their strict readers read them at decode). */
export interface CatalogOptions {
  readonly allowTools?: readonly string[];
  readonly toolAxes?: ToolAxes;
  readonly toolFaces?: ToolFaces;
  readonly contentOrigin?: ContentOrigin;
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

/** A server's catalog before names are minted across the document (assembleCatalogDocument mints them). */
export type UnnamedServerCatalog = Omit<
  ServerCatalogV1,
  'tools' | 'prompts' | 'resources' | 'resourceTemplates'
> & {
  readonly tools: readonly Unnamed<CatalogTool>[];
  readonly prompts: readonly Unnamed<CatalogPrompt>[];
  readonly resources: readonly Unnamed<CatalogResource>[];
  readonly resourceTemplates: readonly Unnamed<CatalogResourceTemplate>[];
};

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

function faceView(face: ToolFace): CatalogToolFace {
  const view: {
    family?: string;
    pathTarget?: { param: string };
    renderHints?: { displayName?: string; summary?: string; approvalCard?: string[] };
    ruleFace?: { keys: string[] };
  } = {};
  if (face.family !== undefined) view.family = face.family;
  if (face.pathTarget !== undefined) view.pathTarget = { param: face.pathTarget.param };
  if (face.renderHints !== undefined) {
    const hints: { displayName?: string; summary?: string; approvalCard?: string[] } = {};
    if (face.renderHints.displayName !== undefined) hints.displayName = face.renderHints.displayName;
    if (face.renderHints.summary !== undefined) hints.summary = face.renderHints.summary;
    if (face.renderHints.approvalCard !== undefined) hints.approvalCard = [...face.renderHints.approvalCard];
    view.renderHints = hints;
  }
  if (face.ruleFace !== undefined) view.ruleFace = { keys: [...face.ruleFace.keys] };
  return view;
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
 * Builds one server's catalog from a listing, at every listing (first mount and every refresh): `allowTools`
 * applied (a member the listing lacks is reported), `toolAxes` folded fail-closed, each `toolFaces` entry judged
 * against the materialized schema and applied whole or not at all (one diagnostic per invalid or undeclared
 * face), `contentOrigin` for the whole server, the source echoed on every entry. A catalog is complete only when
 * discovery said so and no capability failed. Names are minted by assembleCatalogDocument, across every server
 * of the document. Pure: the same listing always builds the same catalog.
 */
export function buildServerCatalog(listing: ServerListing): UnnamedServerCatalog {
  const server = listing.identity.server;
  const source = { tier: listing.source.tier, origin: listing.source.origin };
  const { allowTools, toolAxes, toolFaces } = listing.options;
  const contentOrigin = listing.options.contentOrigin ?? 'external';
  const diagnostics: CatalogDiagnostic[] = [];

  const listed = usable(
    'tool',
    server,
    listing.tools,
    (t) => t.name,
    (t) => t.name,
    diagnostics,
  );
  const listedNames = new Set(listed.map((t) => t.name));
  const allowed = allowTools === undefined ? undefined : new Set(allowTools);
  for (const name of allowTools ?? []) {
    if (!listedNames.has(name)) diagnostics.push({ code: 'allow_tools_unlisted', server, tool: name });
  }
  for (const name of Object.keys(toolAxes ?? {})) {
    if (!listedNames.has(name)) diagnostics.push({ code: 'tool_axes_undeclared', server, tool: name });
  }
  for (const name of Object.keys(toolFaces ?? {})) {
    if (!listedNames.has(name)) diagnostics.push({ code: 'tool_face_undeclared', server, tool: name });
  }

  const tools: Unnamed<CatalogTool>[] = [];
  for (const tool of listed) {
    if (allowed !== undefined && !allowed.has(tool.name)) continue;
    const hints = hintsOf(tool);
    const folded = foldToolAxes(toolAxes?.[tool.name], hints);
    if (folded.contradiction) diagnostics.push({ code: 'tool_axes_contradiction', server, tool: tool.name });
    const entry: Unnamed<CatalogTool> & { outputSchema?: JsonObject; serverHints?: CatalogToolServerHints } =
      withText(
        {
          remoteName: tool.name,
          inputSchema: tool.inputSchema,
          axes: folded.axes,
          axesFrom: folded.from,
          contentOrigin,
          source,
        },
        tool,
      );
    if (tool.outputSchema !== undefined) entry.outputSchema = tool.outputSchema;
    if (hints !== undefined) entry.serverHints = hints;
    const face = toolFaces?.[tool.name];
    if (face !== undefined) {
      const check = checkToolFace(face, tool.inputSchema);
      if (check.ok) {
        (entry as { face?: CatalogToolFace }).face = faceView(face);
      } else {
        diagnostics.push({
          code: 'tool_face_invalid',
          server,
          tool: tool.name,
          problems: check.faults.map((f) => ({ path: [...f.path], problem: f.problem })),
        });
      }
    }
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
    serverVersion: listing.identity.serverVersion,
  };
  return {
    identity,
    source,
    contentOrigin,
    contentOriginDeclared: listing.options.contentOrigin !== undefined,
    complete: listing.complete && failures.length === 0,
    stale: listing.stale,
    fetchedAt: listing.fetchedAt,
    tools,
    prompts,
    resources,
    resourceTemplates,
    diagnostics,
  };
}
