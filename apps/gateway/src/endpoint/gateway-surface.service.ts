import type { PromptOutcome, ResourceReadOutcome } from '@gatehouse/mcp-client';
import type { GatewayCaller } from '../callers/caller.js';
import type { CatalogCache } from '../catalog/catalog-cache.js';
import { callerPolicyOf } from '../catalog/caller-policy.js';
import {
  resolveResource,
  type ServedPrompt,
  type ServedSurface,
  type SurfaceScope,
  type TemplateMatcher,
} from '../catalog/served-surface.js';
import type { WorkspaceCatalogClient } from '../catalog/workspace-catalog.client.js';
import {
  callLeasedUpstream,
  type InputUnavailable,
  type UpstreamUnavailable,
} from '../upstreams/leased-call.js';
import type { UpstreamKey, UpstreamPool } from '../upstreams/upstream-pool.js';
import {
  boundedCompletion,
  completionInputRefusal,
  noCompletion,
  type CompletionInput,
  type CompletionTooLarge,
  type ServedCompletion,
} from './completion-bounds.js';

// Prompts, resources and their completions for a caller, in our own terms (the MCP server adapter maps them to the
// SDK's), on either surface: the workspace endpoint's namespaced one or one server's passthrough (decisions 0104,
// 0105, 0126). Lists come from the caller's catalog policy and gets/reads/completions are resolved through the same
// surface, so what a list shows is exactly what they accept; only then is the server's upstream, for the caller's
// principal, asked. Nothing here carries an upstream's error text, a secret or an argument value.

export type UpstreamPromptResult = Extract<PromptOutcome, { ok: true }>['result'];
export type UpstreamResourceResult = Extract<ResourceReadOutcome, { ok: true }>['result'];

export type SurfaceRead =
  | { readonly ok: true; readonly surface: ServedSurface }
  /** The caller's catalog could not be read now. */
  | { readonly ok: false; readonly reason: 'catalog_unavailable' }
  /** The passthrough's server is not in the caller's catalog (not approved, omitted, revoked, nobody's). */
  | { readonly ok: false; readonly reason: 'not_served' };

export type PromptAnswer =
  | { readonly ok: true; readonly result: UpstreamPromptResult }
  | { readonly ok: false; readonly reason: 'catalog_unavailable' | 'not_served' | 'unknown_prompt' }
  /** An argument the prompt does not declare, or a required one missing: its name, never a value. */
  | {
      readonly ok: false;
      readonly reason: 'invalid_arguments';
      readonly argument: string;
      readonly problem: 'missing' | 'not_declared';
    }
  | UpstreamUnavailable
  | InputUnavailable;

export type ResourceAnswer =
  | { readonly ok: true; readonly result: UpstreamResourceResult }
  | { readonly ok: false; readonly reason: 'catalog_unavailable' | 'not_served' | 'unknown_resource' }
  | UpstreamUnavailable
  | InputUnavailable;

/** What a completion names: a served prompt, or a served resource template (or listed resource) by its URI. */
export type CompletionRef =
  | { readonly type: 'ref/prompt'; readonly name: string }
  | { readonly type: 'ref/resource'; readonly uri: string };

export type CompletionAnswer =
  | { readonly ok: true; readonly result: ServedCompletion }
  | {
      readonly ok: false;
      readonly reason: 'catalog_unavailable' | 'not_served' | 'unknown_prompt' | 'unknown_resource';
    }
  | CompletionTooLarge
  | UpstreamUnavailable
  | InputUnavailable;

export class GatewaySurfaceService {
  constructor(
    private readonly catalogs: CatalogCache,
    private readonly catalogClient: WorkspaceCatalogClient,
    private readonly upstreams: UpstreamPool,
  ) {}

  /** What the scope serves this caller now. */
  async surface(caller: GatewayCaller, scope: SurfaceScope): Promise<SurfaceRead> {
    const read = await callerPolicyOf(this.catalogs, this.catalogClient, caller);
    if (!read.ok) return { ok: false, reason: 'catalog_unavailable' };
    const surface = read.policy.surface(scope);
    return surface === undefined ? { ok: false, reason: 'not_served' } : { ok: true, surface };
  }

  async getPrompt(
    caller: GatewayCaller,
    scope: SurfaceScope,
    name: string,
    args: Readonly<Record<string, string>>,
    bounds: { readonly signal?: AbortSignal } = {},
  ): Promise<PromptAnswer> {
    const read = await this.surface(caller, scope);
    if (!read.ok) return read;
    const served = read.surface.promptsByName.get(name);
    if (served === undefined) return { ok: false, reason: 'unknown_prompt' };
    const refused = argumentsRefusal(served, args);
    if (refused !== undefined) return refused;
    return callLeasedUpstream(this.upstreams, keyOf(caller, served.server), (supervisor) =>
      supervisor.getPrompt(served.remoteName, { ...args }, bounds),
    );
  }

  async readResource(
    caller: GatewayCaller,
    scope: SurfaceScope,
    uri: string,
    matches: TemplateMatcher,
    bounds: { readonly signal?: AbortSignal } = {},
  ): Promise<ResourceAnswer> {
    const read = await this.surface(caller, scope);
    if (!read.ok) return read;
    const resolved = resolveResource(read.surface, uri, matches);
    if (resolved === undefined) return { ok: false, reason: 'unknown_resource' };
    const outcome = await callLeasedUpstream(this.upstreams, keyOf(caller, resolved.server), (supervisor) =>
      supervisor.readResource(resolved.remoteUri, bounds),
    );
    if (!outcome.ok) return outcome;
    // The contents name the URIs the upstream knows: served back under this surface's form of them, so a
    // client can read what it was given (the workspace endpoint's prefix; the passthrough's is empty).
    const prefix = read.surface.uriPrefixOf(resolved.server);
    if (prefix === '') return outcome;
    return {
      ok: true,
      result: {
        ...outcome.result,
        contents: outcome.result.contents.map((content) => ({ ...content, uri: prefix + content.uri })),
      },
    };
  }

  /**
   * completion/complete (decision 0126): the ref resolved through the surface exactly as prompts/get and
   * resources/read resolve theirs, then relayed to that server's upstream with its own prompt name or template;
   * a server that declared no completions offers none (the empty answer), it is not an error.
   */
  async complete(
    caller: GatewayCaller,
    scope: SurfaceScope,
    ref: CompletionRef,
    input: CompletionInput,
    bounds: { readonly signal?: AbortSignal } = {},
  ): Promise<CompletionAnswer> {
    const refused = completionInputRefusal(input);
    if (refused !== undefined) return refused;
    const read = await this.surface(caller, scope);
    if (!read.ok) return read;
    const target = completionTargetOf(read.surface, ref);
    if (!target.ok) return target;
    const outcome = await callLeasedUpstream(this.upstreams, keyOf(caller, target.server), (supervisor) =>
      supervisor.complete(
        {
          ref: target.ref,
          argument: { name: input.argument.name, value: input.argument.value },
          ...(input.context?.arguments === undefined
            ? {}
            : { context: { arguments: { ...input.context.arguments } } }),
        },
        bounds,
      ),
    );
    if (outcome.ok) return { ok: true, result: boundedCompletion(outcome.result) };
    if (outcome.reason === 'not_offered') return { ok: true, result: noCompletion() };
    return outcome;
  }
}

/** A completion's ref as the server that owns it knows it; a ref the surface does not serve is refused. */
function completionTargetOf(
  surface: ServedSurface,
  ref: CompletionRef,
):
  | { readonly ok: true; readonly server: string; readonly ref: CompletionRef }
  | { readonly ok: false; readonly reason: 'unknown_prompt' | 'unknown_resource' } {
  if (ref.type === 'ref/prompt') {
    const served = surface.promptsByName.get(ref.name);
    if (served === undefined) return { ok: false, reason: 'unknown_prompt' };
    return { ok: true, server: served.server, ref: { type: 'ref/prompt', name: served.remoteName } };
  }
  // Exactly a template or a resource as listed, never a URI matched against one.
  const template = surface.templatesByUri.get(ref.uri);
  if (template !== undefined)
    return {
      ok: true,
      server: template.server,
      ref: { type: 'ref/resource', uri: template.template.uriTemplate },
    };
  const resource = surface.resourcesByUri.get(ref.uri);
  if (resource !== undefined)
    return { ok: true, server: resource.server, ref: { type: 'ref/resource', uri: resource.remoteUri } };
  return { ok: false, reason: 'unknown_resource' };
}

/** The server's upstream for the caller's principal. */
function keyOf(caller: GatewayCaller, server: string): UpstreamKey {
  return { tenantId: caller.tenantId, workspaceId: caller.workspaceId, server, principal: caller.userId };
}

/** Prompt arguments are checked against what the catalog lists for the prompt: declared names, required ones. */
function argumentsRefusal(
  served: ServedPrompt,
  args: Readonly<Record<string, string>>,
): Extract<PromptAnswer, { reason: 'invalid_arguments' }> | undefined {
  const declared = served.prompt.arguments ?? [];
  const names = new Set(declared.map((a) => a.name));
  for (const argument of Object.keys(args))
    if (!names.has(argument))
      return { ok: false, reason: 'invalid_arguments', argument, problem: 'not_declared' };
  for (const argument of declared)
    if (argument.required === true && !Object.prototype.hasOwnProperty.call(args, argument.name))
      return { ok: false, reason: 'invalid_arguments', argument: argument.name, problem: 'missing' };
  return undefined;
}
