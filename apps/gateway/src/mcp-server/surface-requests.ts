import {
  ProtocolErrorCode,
  ProtocolError,
  type CompleteResult,
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/server';
import type { GatewayCaller } from '../callers/caller.js';
import { pageOf } from '../catalog/list-page.js';
import type {
  ServedPrompt,
  ServedResource,
  ServedSurface,
  ServedTemplate,
  ServedTool,
  SurfaceScope,
} from '../catalog/served-surface.js';
import type { GatewaySurfaceService } from '../endpoint/gateway-surface.service.js';
import type { GatewayToolsService } from '../endpoint/gateway-tools.service.js';
import { stringArgument, stringArguments } from './argument-bounds.js';
import {
  catalogUnavailable,
  inputUnavailable,
  surfaceFor,
  toolCallHandler,
  upstreamUnavailable,
  type ToolCallHandler,
} from './tool-call-handler.js';
import { matchesTemplate } from './uri-template-matcher.js';

// What one surface answers, whichever protocol era carried the request in: the one server of both eras
// (workspace-server) registers these functions, so a list, a prompt, a read or a completion is refused, paged and
// mapped one way (decisions 0144, 0146). Each takes the caller the endpoint authenticated for THAT request and
// answers the result or throws the JSON-RPC error the client is to receive (the SDK sends a thrown error's `code`,
// `message` and `data` as they are). tools/call is `toolCallHandler`.

/** The `_meta` key of every list that says how complete and fresh the caller's catalog is. */
export const CATALOG_META_KEY = 'dev.gatehouse/catalog';

/**
 * "Resource not found" is -32602 on every revision: the 2026-07-28 revision requires it, and the SDK answers a
 * 2025 session's -32002 as -32602 too (a 2025 client reads either), so the gateway says it in those words itself.
 */
const RESOURCE_NOT_FOUND = ProtocolErrorCode.InvalidParams;

export interface SurfaceRequestsOptions {
  readonly tools: GatewayToolsService;
  readonly surfaces: GatewaySurfaceService;
  /** What this server serves: the workspace, or one server under its own names. */
  readonly scope: SurfaceScope;
  /** How each tools/call ended, with the caller it was for (metrics and the workspace's activity). */
  readonly onToolCall?: (outcome: string, caller: GatewayCaller) => void;
}

/** A request's own reach: its cancellation. */
export interface RequestChannel {
  readonly signal: AbortSignal;
}

export interface PromptParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}

export interface CompleteParams {
  readonly ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  readonly argument: { name: string; value: unknown };
  readonly context?: { arguments?: Record<string, unknown> };
}

export interface SurfaceRequests {
  readonly listTools: (caller: GatewayCaller, cursor: string | undefined) => Promise<ListToolsResult>;
  readonly listPrompts: (caller: GatewayCaller, cursor: string | undefined) => Promise<ListPromptsResult>;
  readonly listResources: (caller: GatewayCaller, cursor: string | undefined) => Promise<ListResourcesResult>;
  readonly listResourceTemplates: (
    caller: GatewayCaller,
    cursor: string | undefined,
  ) => Promise<ListResourceTemplatesResult>;
  readonly getPrompt: (
    caller: GatewayCaller,
    params: PromptParams,
    channel: RequestChannel,
  ) => Promise<GetPromptResult>;
  readonly readResource: (
    caller: GatewayCaller,
    uri: string,
    channel: RequestChannel,
  ) => Promise<ReadResourceResult>;
  readonly complete: (
    caller: GatewayCaller,
    params: CompleteParams,
    channel: RequestChannel,
  ) => Promise<CompleteResult>;
  readonly callTool: ToolCallHandler;
}

function toolOf({ name, exposed }: ServedTool): Tool {
  const { tool } = exposed;
  const hints = tool.serverHints;
  return {
    name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as Tool['outputSchema'] }),
    ...(hints === undefined ? {} : { annotations: { ...hints } }),
  };
}

function promptOf({ name, prompt }: ServedPrompt): Prompt {
  return {
    name,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    ...(prompt.arguments === undefined ? {} : { arguments: prompt.arguments.map((a) => ({ ...a })) }),
  };
}

function resourceOf({ uri, name, resource }: ServedResource): Resource {
  return {
    uri,
    name,
    ...(resource.title === undefined ? {} : { title: resource.title }),
    ...(resource.description === undefined ? {} : { description: resource.description }),
    ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
  };
}

function templateOf({ uriTemplate, name, template }: ServedTemplate): ResourceTemplate {
  return {
    uriTemplate,
    name,
    ...(template.title === undefined ? {} : { title: template.title }),
    ...(template.description === undefined ? {} : { description: template.description }),
    ...(template.mimeType === undefined ? {} : { mimeType: template.mimeType }),
  };
}

/** One page of a list, with the catalog's freshness; a cursor that is not ours is the caller's bad input. */
function page<T, R>(
  surface: ServedSurface,
  items: readonly T[],
  cursor: string | undefined,
  render: (item: T) => R,
) {
  const paged = pageOf(items, cursor);
  if (!paged.ok)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor', { reason: paged.reason });
  return {
    items: paged.items.map(render),
    rest: {
      ...(paged.nextCursor === undefined ? {} : { nextCursor: paged.nextCursor }),
      _meta: { [CATALOG_META_KEY]: surface.freshness },
    },
  };
}

function notServed(reason: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidRequest, 'This server is not served', { reason });
}

function resourceNotFound(reason: string, uri: string): ProtocolError {
  // The URI echoed as the caller sent it (bounded), never anything about whose it is.
  return new ProtocolError(RESOURCE_NOT_FOUND, 'Resource not found', { reason, uri: uri.slice(0, 2_048) });
}

export function surfaceRequests(options: SurfaceRequestsOptions): SurfaceRequests {
  const { scope, surfaces } = options;
  const surfaceOf = (caller: GatewayCaller) => surfaceFor(surfaces, caller, scope);

  return {
    callTool: toolCallHandler(options),

    async listTools(caller, cursor) {
      const surface = await surfaceOf(caller);
      const { items, rest } = page(surface, surface.tools, cursor, toolOf);
      return { tools: items, ...rest };
    },

    async listPrompts(caller, cursor) {
      const surface = await surfaceOf(caller);
      const { items, rest } = page(surface, surface.prompts, cursor, promptOf);
      return { prompts: items, ...rest };
    },

    async listResources(caller, cursor) {
      const surface = await surfaceOf(caller);
      const { items, rest } = page(surface, surface.resources, cursor, resourceOf);
      return { resources: items, ...rest };
    },

    async listResourceTemplates(caller, cursor) {
      const surface = await surfaceOf(caller);
      const { items, rest } = page(surface, surface.templates, cursor, templateOf);
      return { resourceTemplates: items, ...rest };
    },

    async getPrompt(caller, params, channel) {
      const args = stringArguments(params.arguments ?? {});
      if (args instanceof ProtocolError) throw args;
      const answer = await surfaces.getPrompt(caller, scope, params.name, args, { signal: channel.signal });
      if (answer.ok) return answer.result;
      switch (answer.reason) {
        case 'unknown_prompt':
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown prompt', {
            reason: answer.reason,
          });
        case 'invalid_arguments':
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid arguments', {
            reason: answer.reason,
            // The caller's own argument name (bounded), never a value.
            argument: answer.argument.slice(0, 128),
            problem: answer.problem,
          });
        case 'not_served':
          throw notServed(answer.reason);
        case 'catalog_unavailable':
          throw catalogUnavailable();
        case 'upstream_unavailable':
          throw upstreamUnavailable(answer.server, answer.detail);
        case 'input_unavailable':
          throw inputUnavailable(answer.server, answer.refusal);
      }
    },

    async readResource(caller, uri, channel) {
      const answer = await surfaces.readResource(caller, scope, uri, matchesTemplate, {
        signal: channel.signal,
      });
      if (answer.ok) return answer.result;
      switch (answer.reason) {
        case 'unknown_resource':
          // Not one of this surface's resources (another server's, another workspace's, never listed).
          throw resourceNotFound(answer.reason, uri);
        case 'not_served':
          throw notServed(answer.reason);
        case 'catalog_unavailable':
          throw catalogUnavailable();
        case 'upstream_unavailable':
          throw upstreamUnavailable(answer.server, answer.detail);
        case 'input_unavailable':
          throw inputUnavailable(answer.server, answer.refusal);
      }
    },

    async complete(caller, { ref, argument, context }, channel) {
      const value = stringArgument(argument.name, argument.value);
      if (value instanceof ProtocolError) throw value;
      const contextArguments =
        context?.arguments === undefined ? undefined : stringArguments(context.arguments);
      if (contextArguments instanceof ProtocolError) throw contextArguments;
      const answer = await surfaces.complete(
        caller,
        scope,
        ref.type === 'ref/prompt' ? { type: ref.type, name: ref.name } : { type: ref.type, uri: ref.uri },
        {
          argument: { name: argument.name, value },
          ...(context === undefined
            ? {}
            : { context: contextArguments === undefined ? {} : { arguments: contextArguments } }),
        },
        { signal: channel.signal },
      );
      if (answer.ok) return answer.result;
      switch (answer.reason) {
        case 'unknown_prompt':
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown prompt', {
            reason: answer.reason,
          });
        case 'unknown_resource':
          throw resourceNotFound(answer.reason, ref.type === 'ref/resource' ? ref.uri : '');
        case 'argument_too_large':
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Completion argument too large', {
            reason: answer.reason,
            field: answer.field,
          });
        case 'not_served':
          throw notServed(answer.reason);
        case 'catalog_unavailable':
          throw catalogUnavailable();
        case 'upstream_unavailable':
          throw upstreamUnavailable(answer.server, answer.detail);
        case 'input_unavailable':
          throw inputUnavailable(answer.server, answer.refusal);
      }
    },
  };
}
