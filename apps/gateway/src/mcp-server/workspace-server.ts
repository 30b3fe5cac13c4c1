import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type CompleteResult,
  type ElicitRequest,
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  type ReadResourceResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { GatewayCaller } from '../callers/caller.js';
import type { SurfaceScope } from '../catalog/served-surface.js';
import type { RequestHeaders } from '../upstreams/trace-context.js';
import { elicitationAnswer, elicitationRefusal } from './elicitation-answer.js';
import { GATEWAY_CAPABILITIES } from './gateway-capabilities.js';
import { LaxCompleteParamsSchema, LaxGetPromptParamsSchema } from './lax-argument.schema.js';
import {
  callThroughBridge,
  declaresFormElicitation,
  type ElicitationBridgeOptions,
} from './modern/elicitation-bridge.js';
import type { SurfaceRequests } from './surface-requests.js';
import type { ToolCallChannel } from './tool-call-handler.js';

// The one MCP server of both endpoints and both protocol eras (decisions 0080, 0104, 0105, 0144): SDK v2's
// low-level Server with the surface's requests (surface-requests) registered on it. A 2025 session holds one for
// its life; a 2026-07-28 request (and a 2025 request without a session) gets one of its own. Either way the
// caller of each request is the one the endpoint authenticated for THAT request, carried with it in the
// transport's authInfo, so a session never outlives its token's revocation. What differs by era is how an
// upstream's elicitation reaches the client: a 2025 session's client is asked on the call's own stream (when it
// declared it at initialize); a 2026 client gets an `input_required` round (elicitation-bridge).

/** What the endpoint hands the server with each request (the transport's `authInfo.extra`). */
export interface SurfaceRequestScope {
  readonly caller: GatewayCaller;
  readonly scope: SurfaceScope;
  /** The HTTP request's own headers (its trace context, decision 0106). */
  readonly headers: RequestHeaders;
}

export const REQUEST_SCOPE_KEY = 'gatehouseRequestScope';

export function requestScopeOf(ctx: ServerContext): SurfaceRequestScope {
  const scope = ctx.http?.authInfo?.extra?.[REQUEST_SCOPE_KEY];
  // The endpoint authenticates every request before the transport sees it: no caller is our bug.
  if (scope === undefined)
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Unauthenticated request reached the server');
  return scope as SurfaceRequestScope;
}

/** What a requestState is bound to: the caller's token and workspace, and the surface it was minted on. */
export function requestStateBindingOf(ctx: ServerContext): string {
  const { caller, scope } = requestScopeOf(ctx);
  return [caller.tokenId, caller.workspaceId, scope.kind === 'workspace' ? '' : scope.server].join('\0');
}

/**
 * The surface requests' answers are built from the catalog's stored shapes; they are the JSON the SDK's result
 * types describe, which is all this cast claims.
 */
async function sameWire<T>(answer: Promise<unknown>): Promise<T> {
  return (await answer) as T;
}

/** A client's answer to an elicitation, read as any JSON: elicitation-answer rebuilds it from what it allows. */
const ANY_RESULT = z.unknown();

export interface WorkspaceServerOptions {
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly requests: SurfaceRequests;
  /** The era the server serves: a 2025 session (or sessionless request), or one 2026-07-28 request. */
  readonly era: 'legacy' | 'modern';
  /** The elicitation bridge of the 2026 era; absent, an upstream's elicitation is refused as for a sessionless call. */
  readonly bridge?: ElicitationBridgeOptions;
}

export function createWorkspaceServer({ serverInfo, requests, era, bridge }: WorkspaceServerOptions): Server {
  const modernBridge = era === 'modern' ? bridge : undefined;
  const server = new Server(
    { name: serverInfo.name, version: serverInfo.version },
    {
      capabilities: GATEWAY_CAPABILITIES,
      // A forged, expired or other caller's state is refused here, before the handler runs.
      ...(modernBridge === undefined ? {} : { requestState: { verify: modernBridge.codec.verify } }),
    },
  );
  const callerOf = (ctx: ServerContext) => requestScopeOf(ctx).caller;

  /** Form-mode elicitation on a 2025 session, when its client declared it (decision 0107). */
  const sessionElicitation = (ctx: ServerContext): Pick<ToolCallChannel, 'elicit'> => {
    const elicits = era === 'legacy' ? server.getClientCapabilities()?.elicitation : undefined;
    if (elicits === undefined || (elicits.form === undefined && elicits.url !== undefined)) return {};
    return {
      elicit: async (params, signal) => {
        const raw = await ctx.mcpReq
          .send({ method: 'elicitation/create', params: params as ElicitRequest['params'] }, ANY_RESULT, {
            signal,
          })
          .catch((error: unknown) => {
            throw elicitationRefusal(error);
          });
        const answer = elicitationAnswer(raw);
        if (answer instanceof ProtocolError) throw answer;
        return answer;
      },
    };
  };

  server.setRequestHandler('tools/list', (request, ctx) =>
    sameWire<ListToolsResult>(requests.listTools(callerOf(ctx), request.params?.cursor)),
  );
  server.setRequestHandler('tools/call', (request, ctx) => {
    const { caller, headers } = requestScopeOf(ctx);
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const params = { name: request.params.name, arguments: request.params.arguments ?? {} };
    const channel: Omit<ToolCallChannel, 'elicit'> = {
      signal: ctx.mcpReq.signal,
      requestHeaders: headers,
      ...(ctx.sessionId === undefined ? {} : { sessionId: ctx.sessionId }),
      // Progress of this call goes to this call's own response stream; nothing else.
      ...(progressToken === undefined
        ? {}
        : {
            sendProgress: (progress) =>
              ctx.mcpReq.notify({
                method: 'notifications/progress',
                params: { progressToken, ...progress },
              }),
          }),
    };
    if (modernBridge !== undefined && declaresFormElicitation(ctx))
      return callThroughBridge(modernBridge, requests.callTool, caller, params, channel, ctx);
    return sameWire<CallToolResult>(
      requests.callTool(caller, params, { ...channel, ...sessionElicitation(ctx) }),
    );
  });
  server.setRequestHandler('prompts/list', (request, ctx) =>
    sameWire<ListPromptsResult>(requests.listPrompts(callerOf(ctx), request.params?.cursor)),
  );
  server.setRequestHandler('prompts/get', { params: LaxGetPromptParamsSchema }, (params, ctx) =>
    sameWire<GetPromptResult>(requests.getPrompt(callerOf(ctx), params, { signal: ctx.mcpReq.signal })),
  );
  server.setRequestHandler('resources/list', (request, ctx) =>
    sameWire<ListResourcesResult>(requests.listResources(callerOf(ctx), request.params?.cursor)),
  );
  server.setRequestHandler('resources/templates/list', (request, ctx) =>
    sameWire<ListResourceTemplatesResult>(
      requests.listResourceTemplates(callerOf(ctx), request.params?.cursor),
    ),
  );
  server.setRequestHandler('resources/read', (request, ctx) =>
    sameWire<ReadResourceResult>(
      requests.readResource(callerOf(ctx), request.params.uri, { signal: ctx.mcpReq.signal }),
    ),
  );
  server.setRequestHandler('completion/complete', { params: LaxCompleteParamsSchema }, (params, ctx) =>
    sameWire<CompleteResult>(requests.complete(callerOf(ctx), params, { signal: ctx.mcpReq.signal })),
  );
  return server;
}
