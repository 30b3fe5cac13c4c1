import type {
  CatalogPrompt,
  CatalogResource,
  CatalogResourceTemplate,
  WorkspaceCatalogV1,
} from '@gatehouse/contracts';
import { serverFreshnessOf, type CatalogFreshness } from './catalog-freshness.js';
import type { ExposedTool } from './tool-policy.js';

// What one MCP endpoint serves a caller, built from the caller's catalog lease (the one policy, decision 0080):
// the workspace endpoint serves every discovered server under namespaced names and URIs (decision 0104), the
// per-server passthrough serves one server under its own names (decision 0105). Each surface holds the lists a
// client sees and the maps its get/read/call requests are resolved through, and nothing else: a name or URI the
// surface does not hold is refused, whatever an upstream offers. A URI is resolved by lookup (a listed resource)
// or by matching one of the surface's own templates, never parsed into a server name.

/** Which surface an endpoint serves: the whole workspace, or one server with its own names. */
export type SurfaceScope =
  { readonly kind: 'workspace' } | { readonly kind: 'server'; readonly server: string };

/** The scheme of the workspace endpoint's resource URIs: `gatehouse://<server>/<the upstream's URI>`. */
export const RESOURCE_URI_SCHEME = 'gatehouse';

/** The served form of an upstream URI (or URI template) of `server` on the workspace endpoint. */
export function namespacedUriOf(server: string, remote: string): string {
  return `${RESOURCE_URI_SCHEME}://${server}/${remote}`;
}

export interface ServedTool {
  /** The name the caller sees (minted on the workspace endpoint, the upstream's on the passthrough). */
  readonly name: string;
  readonly exposed: ExposedTool;
}

export interface ServedPrompt {
  readonly name: string;
  readonly server: string;
  readonly remoteName: string;
  readonly prompt: CatalogPrompt;
}

export interface ServedResource {
  /** The URI the caller sees and reads. */
  readonly uri: string;
  /** The name the caller sees. */
  readonly name: string;
  readonly server: string;
  readonly remoteUri: string;
  readonly resource: CatalogResource;
}

export interface ServedTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly server: string;
  /** What the served template adds before the upstream's (empty on the passthrough). */
  readonly prefix: string;
  readonly template: CatalogResourceTemplate;
}

export interface ServedSurface {
  readonly tools: readonly ServedTool[];
  readonly toolsByName: ReadonlyMap<string, ServedTool>;
  readonly prompts: readonly ServedPrompt[];
  readonly promptsByName: ReadonlyMap<string, ServedPrompt>;
  readonly resources: readonly ServedResource[];
  readonly resourcesByUri: ReadonlyMap<string, ServedResource>;
  readonly templates: readonly ServedTemplate[];
  /** By the template as served (a completion's `ref/resource` names one exactly, decision 0126). */
  readonly templatesByUri: ReadonlyMap<string, ServedTemplate>;
  /** The prefix each served server's URIs carry (empty on the passthrough), to map result URIs back. */
  readonly uriPrefixOf: (server: string) => string;
  readonly freshness: CatalogFreshness;
}

/** A served URI resolved to the server that answers it and the URI that server knows. */
export interface ResolvedResource {
  readonly server: string;
  readonly remoteUri: string;
}

/** Whether an upstream URI matches an upstream URI template (RFC 6570; the SDK's matcher, given by the adapter). */
export type TemplateMatcher = (uriTemplate: string, uri: string) => boolean;

/**
 * A served URI to its server: a listed resource by exact lookup, else the first of the surface's templates whose
 * prefix the URI starts with and whose upstream template the rest of it matches. Anything else is not served.
 */
export function resolveResource(
  surface: ServedSurface,
  uri: string,
  matches: TemplateMatcher,
): ResolvedResource | undefined {
  const listed = surface.resourcesByUri.get(uri);
  if (listed !== undefined) return { server: listed.server, remoteUri: listed.remoteUri };
  for (const served of surface.templates) {
    if (!uri.startsWith(served.prefix)) continue;
    const remoteUri = uri.slice(served.prefix.length);
    if (remoteUri.length > 0 && matches(served.template.uriTemplate, remoteUri))
      return { server: served.server, remoteUri };
  }
  return undefined;
}

type Document = WorkspaceCatalogV1['document'];

/** Every discovered server under namespaced names (tools and prompts minted by the catalog) and URIs. */
export function workspaceSurfaceOf(
  document: Document,
  tools: readonly ExposedTool[],
  freshness: CatalogFreshness,
): ServedSurface {
  const prompts: ServedPrompt[] = [];
  const resources: ServedResource[] = [];
  const templates: ServedTemplate[] = [];
  for (const server of document.servers) {
    const name = server.identity.server;
    const prefix = namespacedUriOf(name, '');
    for (const prompt of server.prompts)
      prompts.push({ name: prompt.name, server: name, remoteName: prompt.remoteName, prompt });
    for (const resource of server.resources)
      resources.push({
        uri: prefix + resource.uri,
        name: resource.name,
        server: name,
        remoteUri: resource.uri,
        resource,
      });
    for (const template of server.resourceTemplates)
      templates.push({
        uriTemplate: prefix + template.uriTemplate,
        name: template.name,
        server: name,
        prefix,
        template,
      });
  }
  return surfaceOf(
    tools.map((exposed) => ({ name: exposed.name, exposed })),
    prompts,
    resources,
    templates,
    (server) => namespacedUriOf(server, ''),
    freshness,
  );
}

/** One discovered server under its own names and URIs; undefined when the document does not carry it. */
export function serverSurfaceOf(
  document: Document,
  tools: readonly ExposedTool[],
  catalog: WorkspaceCatalogV1,
  serverName: string,
): ServedSurface | undefined {
  const server = document.servers.find((s) => s.identity.server === serverName);
  if (server === undefined) return undefined;
  const state = catalog.servers.find((s) => s.name === serverName);
  return surfaceOf(
    tools.filter((t) => t.server === serverName).map((exposed) => ({ name: exposed.remoteName, exposed })),
    server.prompts.map((prompt) => ({
      name: prompt.remoteName,
      server: serverName,
      remoteName: prompt.remoteName,
      prompt,
    })),
    server.resources.map((resource) => ({
      uri: resource.uri,
      name: resource.remoteName,
      server: serverName,
      remoteUri: resource.uri,
      resource,
    })),
    server.resourceTemplates.map((template) => ({
      uriTemplate: template.uriTemplate,
      name: template.remoteName,
      server: serverName,
      prefix: '',
      template,
    })),
    () => '',
    {
      complete: state?.complete ?? server.complete,
      stale: state?.stale ?? server.stale,
      servers: state === undefined ? [] : [serverFreshnessOf(state)],
    },
  );
}

function surfaceOf(
  tools: ServedTool[],
  prompts: ServedPrompt[],
  resources: ServedResource[],
  templates: ServedTemplate[],
  uriPrefixOf: (server: string) => string,
  freshness: CatalogFreshness,
): ServedSurface {
  const resourcesByUri = new Map<string, ServedResource>();
  // A URI listed twice (two names, one URI) resolves to the first, as it is listed first.
  for (const resource of resources)
    if (!resourcesByUri.has(resource.uri)) resourcesByUri.set(resource.uri, resource);
  const templatesByUri = new Map<string, ServedTemplate>();
  for (const template of templates)
    if (!templatesByUri.has(template.uriTemplate)) templatesByUri.set(template.uriTemplate, template);
  return {
    tools,
    toolsByName: new Map(tools.map((t) => [t.name, t])),
    prompts,
    promptsByName: new Map(prompts.map((p) => [p.name, p])),
    resources,
    resourcesByUri,
    templates,
    templatesByUri,
    uriPrefixOf,
    freshness,
  };
}
