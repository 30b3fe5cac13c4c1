import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type CompleteResult,
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  type ReadResourceResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { GatewayCaller } from '../../callers/caller.js';
import type { SurfaceScope } from '../../catalog/served-surface.js';
import type { RequestHeaders } from '../../upstreams/trace-context.js';
import { GATEWAY_CAPABILITIES } from '../gateway-capabilities.js';
import type { SurfaceRequests } from '../surface-requests.js';
import type { ToolCallChannel } from '../tool-call-handler.js';
import {
  callThroughBridge,
  declaresFormElicitation,
  type ElicitationBridgeOptions,
} from './elicitation-bridge.js';

// The 2026-07-28 era's server for one request of either endpoint (decision 0144): SDK v2's low-level Server,
// built per request by the per-request handler, with the same surface requests the 2025 sessions serve. Nothing
// outlives the request: the caller, its surface and its HTTP headers arrive with it (in the handler's authInfo),
// the client's capabilities and info in the request's own `_meta` envelope. An upstream's elicitation is not
// relayed as a request to the client (the 2026 revision has none): it becomes an `input_required` round
// (elicitation-bridge).

/** What the endpoint hands the per-request server (the handler's `authInfo.extra`). */
export interface ModernRequestScope {
  readonly caller: GatewayCaller;
  readonly scope: SurfaceScope;
  /** The HTTP request's own headers (its trace context, decision 0106). */
  readonly headers: RequestHeaders;
}

export const MODERN_SCOPE_KEY = 'gatehouseModernScope';

/** What a requestState is bound to: the caller's token and workspace, and the surface it was minted on. */
export function requestStateBindingOf(ctx: ServerContext): string {
  const { caller, scope } = scopeOf(ctx);
  return [caller.tokenId, caller.workspaceId, scope.kind === 'workspace' ? '' : scope.server].join('\0');
}

function scopeOf(ctx: ServerContext): ModernRequestScope {
  const scope = ctx.http?.authInfo?.extra?.[MODERN_SCOPE_KEY];
  // The endpoint authenticates every request before the handler sees it: no caller is our bug.
  if (scope === undefined)
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Unauthenticated request reached the server');
  return scope as ModernRequestScope;
}

/**
 * The surface requests' answers are typed with the 2025 SDK's result types; they are the same JSON the 2026 SDK's
 * types describe (the wire shapes of these results did not change), which is all this cast claims.
 */
async function sameWire<T>(answer: Promise<unknown>): Promise<T> {
  return (await answer) as T;
}

export interface ModernServerOptions {
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly requests: SurfaceRequests;
  /** The elicitation bridge for 2025 upstreams; absent, an upstream's elicitation is refused as for a 2025 sessionless call. */
  readonly bridge?: ElicitationBridgeOptions;
}

export function createModernWorkspaceServer({ serverInfo, requests, bridge }: ModernServerOptions): Server {
  const server = new Server(
    { name: serverInfo.name, version: serverInfo.version },
    {
      capabilities: GATEWAY_CAPABILITIES,
      // A forged, expired or other caller's state is refused here, before the handler runs.
      ...(bridge === undefined ? {} : { requestState: { verify: bridge.codec.verify } }),
    },
  );
  const callerOf = (ctx: ServerContext) => scopeOf(ctx).caller;

  server.setRequestHandler('tools/list', (request, ctx) =>
    sameWire<ListToolsResult>(requests.listTools(callerOf(ctx), request.params?.cursor)),
  );
  server.setRequestHandler('tools/call', (request, ctx) => {
    const { caller, headers } = scopeOf(ctx);
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const params = { name: request.params.name, arguments: request.params.arguments ?? {} };
    const channel: Omit<ToolCallChannel, 'elicit'> = {
      signal: ctx.mcpReq.signal,
      requestHeaders: headers,
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
    if (bridge !== undefined && declaresFormElicitation(ctx))
      return callThroughBridge(bridge, requests.callTool, caller, params, channel, ctx);
    return sameWire<CallToolResult>(requests.callTool(caller, params, channel));
  });
  server.setRequestHandler('prompts/list', (request, ctx) =>
    sameWire<ListPromptsResult>(requests.listPrompts(callerOf(ctx), request.params?.cursor)),
  );
  server.setRequestHandler('prompts/get', (request, ctx) =>
    sameWire<GetPromptResult>(
      requests.getPrompt(callerOf(ctx), request.params, { signal: ctx.mcpReq.signal }),
    ),
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
  server.setRequestHandler('completion/complete', (request, ctx) =>
    sameWire<CompleteResult>(requests.complete(callerOf(ctx), request.params, { signal: ctx.mcpReq.signal })),
  );
  return server;
}
