import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  ResultSchema,
  type CallToolResult,
  type CompleteResult,
  type ElicitRequest,
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
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
import { elicitationAnswer, elicitationRefusal } from './elicitation-answer.js';
import { LaxCompleteRequestSchema, LaxGetPromptRequestSchema } from './lax-argument.schema.js';
import {
  catalogUnavailable,
  surfaceFor,
  toolCallHandler,
  upstreamUnavailable,
  type ToolCallHandler,
} from './tool-call-handler.js';
import { matchesTemplate } from './uri-template-matcher.js';

// The SDK's low-level Server for one session of either endpoint (decisions 0080, 0104, 0105): the workspace
// endpoint (every served server, namespaced) or one server's passthrough (its own names), the same handlers
// parameterized by the surface scope. tools, prompts and resources are our own handlers over the caller's catalog
// surface (McpServer would own the tables and never page); every list pages with the same opaque cursor. The
// caller of each request is the one the endpoint authenticated for THAT request (carried in the transport's
// authInfo), so a session never outlives its token's revocation. A tool error is the upstream's result with
// isError; everything else a client must tell apart is a JSON-RPC error with a stable `data.reason`, never an
// upstream's words. resources/subscribe is not served, so not advertised.

/** Where the endpoint leaves the request's caller for the handlers (the transport's `req.auth.extra`). */
export const CALLER_KEY = 'gatehouseCaller';

/** The `_meta` key of every list that says how complete and fresh the caller's catalog is. */
export const CATALOG_META_KEY = 'dev.gatehouse/catalog';

/** The protocol's "resource not found" (MCP 2025-11-25). */
const RESOURCE_NOT_FOUND = -32002;

export interface WorkspaceServerOptions {
  readonly tools: GatewayToolsService;
  readonly surfaces: GatewaySurfaceService;
  /** What this server serves: the workspace, or one server under its own names. */
  readonly scope: SurfaceScope;
  readonly serverInfo: { readonly name: string; readonly version: string };
  /** How each tools/call ended, with the caller it was for (metrics and the workspace's activity). */
  readonly onToolCall?: (outcome: string, caller: GatewayCaller) => void;
}

function callerOf(extra: { authInfo?: { extra?: Record<string, unknown> } }): GatewayCaller {
  const caller = extra.authInfo?.extra?.[CALLER_KEY];
  // The endpoint authenticates every request before the transport sees it: no caller is our bug.
  if (caller === undefined)
    throw new McpError(ErrorCode.InternalError, 'Unauthenticated request reached the server');
  return caller as GatewayCaller;
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

/** One session's (or one stateless request's) server, and its tools/call for the warm-call path. */
export interface WorkspaceServer {
  readonly server: Server;
  readonly callTool: ToolCallHandler;
}

export function createWorkspaceServer(options: WorkspaceServerOptions): WorkspaceServer {
  const { scope, surfaces } = options;
  const callTool = toolCallHandler(options);
  const server = new Server(
    { name: options.serverInfo.name, version: options.serverInfo.version },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
        // Relayed to the upstream that owns the ref; one that declared none offers none (decision 0126).
        completions: {},
      },
    },
  );

  /** The caller's surface now; the passthrough's server gone since admission is refused like an unknown one. */
  function surfaceOf(extra: Parameters<typeof callerOf>[0]): Promise<ServedSurface> {
    return surfaceFor(surfaces, callerOf(extra), scope);
  }

  /** One page of a list, with the catalog's freshness; a cursor that is not ours is the caller's bad input. */
  function page<T, R>(
    surface: ServedSurface,
    items: readonly T[],
    cursor: string | undefined,
    render: (item: T) => R,
  ) {
    const paged = pageOf(items, cursor);
    if (!paged.ok) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor', { reason: paged.reason });
    return {
      items: paged.items.map(render),
      rest: {
        ...(paged.nextCursor === undefined ? {} : { nextCursor: paged.nextCursor }),
        _meta: { [CATALOG_META_KEY]: surface.freshness },
      },
    };
  }

  server.setRequestHandler(ListToolsRequestSchema, async (request, extra): Promise<ListToolsResult> => {
    const surface = await surfaceOf(extra);
    const { items, rest } = page(surface, surface.tools, request.params?.cursor, toolOf);
    return { tools: items, ...rest };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progressToken = request.params._meta?.progressToken;
    // Form-mode elicitation, declared by this session's client (a stateless request has no client to ask).
    const elicits = server.getClientCapabilities()?.elicitation;
    return callTool(
      callerOf(extra),
      { name: request.params.name, arguments: request.params.arguments ?? {} },
      {
        signal: extra.signal,
        requestHeaders: extra.requestInfo?.headers ?? {},
        ...(extra.sessionId === undefined ? {} : { sessionId: extra.sessionId }),
        ...(elicits === undefined || (elicits.form === undefined && elicits.url !== undefined)
          ? {}
          : {
              // Read as any result and rebuilt from action and content only (elicitation-answer).
              elicit: async (params, signal) => {
                const raw = await extra
                  .sendRequest(
                    { method: 'elicitation/create', params: params as ElicitRequest['params'] },
                    ResultSchema,
                    { signal },
                  )
                  .catch((error: unknown) => {
                    throw elicitationRefusal(error);
                  });
                const answer = elicitationAnswer(raw);
                if (answer instanceof McpError) throw answer;
                return answer;
              },
            }),
        // Progress of this call goes to this call's own request stream, under the client's token; nothing else.
        ...(progressToken === undefined
          ? {}
          : {
              sendProgress: (progress) =>
                extra.sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken, ...progress },
                }),
            }),
      },
    );
  });

  server.setRequestHandler(ListPromptsRequestSchema, async (request, extra): Promise<ListPromptsResult> => {
    const surface = await surfaceOf(extra);
    const { items, rest } = page(surface, surface.prompts, request.params?.cursor, promptOf);
    return { prompts: items, ...rest };
  });

  server.setRequestHandler(LaxGetPromptRequestSchema, async (request, extra): Promise<GetPromptResult> => {
    const args = stringArguments(request.params.arguments ?? {});
    if (args instanceof McpError) throw args;
    const answer = await surfaces.getPrompt(callerOf(extra), scope, request.params.name, args, {
      signal: extra.signal,
    });
    if (answer.ok) return answer.result;
    switch (answer.reason) {
      case 'unknown_prompt':
        throw new McpError(ErrorCode.InvalidParams, 'Unknown prompt', { reason: answer.reason });
      case 'invalid_arguments':
        throw new McpError(ErrorCode.InvalidParams, 'Invalid arguments', {
          reason: answer.reason,
          // The caller's own argument name (bounded), never a value.
          argument: answer.argument.slice(0, 128),
          problem: answer.problem,
        });
      case 'not_served':
        throw new McpError(ErrorCode.InvalidRequest, 'This server is not served', { reason: answer.reason });
      case 'catalog_unavailable':
        throw catalogUnavailable();
      case 'upstream_unavailable':
        throw upstreamUnavailable(answer.server, answer.detail);
    }
  });

  server.setRequestHandler(
    ListResourcesRequestSchema,
    async (request, extra): Promise<ListResourcesResult> => {
      const surface = await surfaceOf(extra);
      const { items, rest } = page(surface, surface.resources, request.params?.cursor, resourceOf);
      return { resources: items, ...rest };
    },
  );

  server.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    async (request, extra): Promise<ListResourceTemplatesResult> => {
      const surface = await surfaceOf(extra);
      const { items, rest } = page(surface, surface.templates, request.params?.cursor, templateOf);
      return { resourceTemplates: items, ...rest };
    },
  );

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra): Promise<ReadResourceResult> => {
    const answer = await surfaces.readResource(callerOf(extra), scope, request.params.uri, matchesTemplate, {
      signal: extra.signal,
    });
    if (answer.ok) return answer.result;
    switch (answer.reason) {
      case 'unknown_resource':
        // Not one of this surface's resources (another server's, another workspace's, never listed): the
        // protocol's not-found, the URI echoed as the caller sent it.
        throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found', {
          reason: answer.reason,
          uri: request.params.uri.slice(0, 2_048),
        });
      case 'not_served':
        throw new McpError(ErrorCode.InvalidRequest, 'This server is not served', { reason: answer.reason });
      case 'catalog_unavailable':
        throw catalogUnavailable();
      case 'upstream_unavailable':
        throw upstreamUnavailable(answer.server, answer.detail);
    }
  });

  server.setRequestHandler(LaxCompleteRequestSchema, async (request, extra): Promise<CompleteResult> => {
    const { ref, argument, context } = request.params;
    const value = stringArgument(argument.name, argument.value);
    if (value instanceof McpError) throw value;
    const contextArguments =
      context?.arguments === undefined ? undefined : stringArguments(context.arguments);
    if (contextArguments instanceof McpError) throw contextArguments;
    const answer = await surfaces.complete(
      callerOf(extra),
      scope,
      ref.type === 'ref/prompt' ? { type: ref.type, name: ref.name } : { type: ref.type, uri: ref.uri },
      {
        argument: { name: argument.name, value },
        ...(context === undefined
          ? {}
          : { context: contextArguments === undefined ? {} : { arguments: contextArguments } }),
      },
      { signal: extra.signal },
    );
    if (answer.ok) return answer.result;
    switch (answer.reason) {
      case 'unknown_prompt':
        throw new McpError(ErrorCode.InvalidParams, 'Unknown prompt', { reason: answer.reason });
      case 'unknown_resource':
        throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found', {
          reason: answer.reason,
          uri: (ref.type === 'ref/resource' ? ref.uri : '').slice(0, 2_048),
        });
      case 'argument_too_large':
        throw new McpError(ErrorCode.InvalidParams, 'Completion argument too large', {
          reason: answer.reason,
          field: answer.field,
        });
      case 'not_served':
        throw new McpError(ErrorCode.InvalidRequest, 'This server is not served', { reason: answer.reason });
      case 'catalog_unavailable':
        throw catalogUnavailable();
      case 'upstream_unavailable':
        throw upstreamUnavailable(answer.server, answer.detail);
    }
  });

  return { server, callTool };
}
