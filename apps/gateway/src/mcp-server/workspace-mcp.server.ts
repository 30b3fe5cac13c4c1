import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ListToolsResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { GatewayCaller } from '../callers/caller.js';
import type { ExposedTool } from '../catalog/tool-policy.js';
import type { GatewayToolsService } from '../endpoint/gateway-tools.service.js';

// The SDK's low-level Server for one workspace session (decision 0080): tools/list and tools/call are our own
// handlers over GatewayToolsService (McpServer would own the tool table and never page). The caller of each
// request is the one the endpoint authenticated for THAT request (carried in the transport's authInfo), so a
// session never outlives its token's revocation. A tool error is the upstream's result with isError; everything
// else a client must tell apart is a JSON-RPC error with a stable `data.reason`, never an upstream's words.

/** Where the endpoint leaves the request's caller for the handlers (the transport's `req.auth.extra`). */
export const CALLER_KEY = 'gatehouseCaller';

/** The `_meta` key of tools/list that says how complete and fresh the caller's catalog is. */
export const CATALOG_META_KEY = 'dev.gatehouse/catalog';

export interface WorkspaceServerOptions {
  readonly tools: GatewayToolsService;
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly onToolCall?: (outcome: string) => void;
}

function callerOf(extra: { authInfo?: { extra?: Record<string, unknown> } }): GatewayCaller {
  const caller = extra.authInfo?.extra?.[CALLER_KEY];
  // The endpoint authenticates every request before the transport sees it: no caller is our bug.
  if (caller === undefined)
    throw new McpError(ErrorCode.InternalError, 'Unauthenticated request reached the server');
  return caller as GatewayCaller;
}

function toolOf(exposed: ExposedTool): Tool {
  const { tool } = exposed;
  const hints = tool.serverHints;
  return {
    name: exposed.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as Tool['outputSchema'] }),
    ...(hints === undefined ? {} : { annotations: { ...hints } }),
  };
}

export function createWorkspaceServer(options: WorkspaceServerOptions): Server {
  const server = new Server(
    { name: options.serverInfo.name, version: options.serverInfo.version },
    { capabilities: { tools: { listChanged: true } } },
  );

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra): Promise<ListToolsResult> => {
    const listing = await options.tools.list(callerOf(extra));
    if (!listing.ok)
      throw new McpError(ErrorCode.InternalError, 'The workspace catalog is unavailable', {
        reason: listing.reason,
      });
    return { tools: listing.tools.map(toolOf), _meta: { [CATALOG_META_KEY]: listing.freshness } };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progressToken = request.params._meta?.progressToken;
    // Every relayed progress is written before the result: the result ends the call's stream, and a progress
    // after it is lost to the client (the upstream's order is kept by libs/mcp-client; this keeps ours).
    const relayed: Promise<void>[] = [];
    const answer = await options.tools.call(
      callerOf(extra),
      request.params.name,
      request.params.arguments ?? {},
      {
        signal: extra.signal,
        // Progress of this call goes to this call's own request stream, under the client's token; nothing else.
        ...(progressToken === undefined
          ? {}
          : {
              onProgress: (progress) => {
                relayed.push(
                  extra
                    .sendNotification({
                      method: 'notifications/progress',
                      params: { progressToken, ...progress },
                    })
                    .catch(() => undefined),
                );
              },
            }),
      },
    );
    await Promise.all(relayed);
    options.onToolCall?.(answer.ok ? (answer.result.isError === true ? 'tool_error' : 'ok') : answer.reason);
    if (answer.ok) return answer.result;
    switch (answer.reason) {
      case 'unknown_tool':
        throw new McpError(ErrorCode.InvalidParams, 'Unknown tool', { reason: answer.reason });
      case 'invalid_arguments':
        throw new McpError(ErrorCode.InvalidParams, 'Invalid arguments', {
          reason: answer.reason,
          path: answer.path,
          problem: answer.problem,
        });
      case 'catalog_unavailable':
        throw new McpError(ErrorCode.InternalError, 'The workspace catalog is unavailable', {
          reason: answer.reason,
        });
      case 'upstream_unavailable':
        throw new McpError(ErrorCode.InternalError, 'The upstream server is unavailable', {
          reason: answer.reason,
          server: answer.server,
          detail: answer.detail,
        });
    }
  });

  return server;
}
