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
  type ElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { GatewayCaller } from '../callers/caller.js';
import { elicitationAnswer, elicitationRefusal } from './elicitation-answer.js';
import { LaxCompleteRequestSchema, LaxGetPromptRequestSchema } from './lax-argument.schema.js';
import { GATEWAY_CAPABILITIES } from './gateway-capabilities.js';
import { surfaceRequests, type SurfaceRequestsOptions } from './surface-requests.js';
import type { ToolCallHandler } from './tool-call-handler.js';

// The 2025 era's server for one session (or one sessionless request) of either endpoint (decisions 0080, 0104,
// 0105): SDK 1.32's low-level Server with the surface's requests (surface-requests) registered on it. The caller
// of each request is the one the endpoint authenticated for THAT request (carried in the transport's authInfo),
// so a session never outlives its token's revocation. What only a session has is here: the client's declared
// elicitation, and its progress stream.

/** Where the endpoint leaves the request's caller for the handlers (the transport's `req.auth.extra`). */
export const CALLER_KEY = 'gatehouseCaller';

export interface WorkspaceServerOptions extends SurfaceRequestsOptions {
  readonly serverInfo: { readonly name: string; readonly version: string };
}

function callerOf(extra: { authInfo?: { extra?: Record<string, unknown> } }): GatewayCaller {
  const caller = extra.authInfo?.extra?.[CALLER_KEY];
  // The endpoint authenticates every request before the transport sees it: no caller is our bug.
  if (caller === undefined)
    throw new McpError(ErrorCode.InternalError, 'Unauthenticated request reached the server');
  return caller as GatewayCaller;
}

/** One session's (or one stateless request's) server, and its tools/call for the warm-call path. */
export interface WorkspaceServer {
  readonly server: Server;
  readonly callTool: ToolCallHandler;
}

export function createWorkspaceServer(options: WorkspaceServerOptions): WorkspaceServer {
  const requests = surfaceRequests(options);
  const { callTool } = requests;
  const server = new Server(
    { name: options.serverInfo.name, version: options.serverInfo.version },
    { capabilities: GATEWAY_CAPABILITIES },
  );

  server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
    requests.listTools(callerOf(extra), request.params?.cursor),
  );

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
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

  server.setRequestHandler(ListPromptsRequestSchema, (request, extra) =>
    requests.listPrompts(callerOf(extra), request.params?.cursor),
  );
  server.setRequestHandler(LaxGetPromptRequestSchema, (request, extra) =>
    requests.getPrompt(callerOf(extra), request.params, { signal: extra.signal }),
  );
  server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
    requests.listResources(callerOf(extra), request.params?.cursor),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request, extra) =>
    requests.listResourceTemplates(callerOf(extra), request.params?.cursor),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    requests.readResource(callerOf(extra), request.params.uri, { signal: extra.signal }),
  );
  server.setRequestHandler(LaxCompleteRequestSchema, (request, extra) =>
    requests.complete(callerOf(extra), request.params, { signal: extra.signal }),
  );

  return { server, callTool };
}
