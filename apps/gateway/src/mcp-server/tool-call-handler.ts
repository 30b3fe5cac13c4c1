import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import type { ElicitationRefusal, ElicitationRelay } from '@gatehouse/mcp-client';
import type { GatewayCaller } from '../callers/caller.js';
import type { ServedSurface, SurfaceScope } from '../catalog/served-surface.js';
import type { GatewaySurfaceService } from '../endpoint/gateway-surface.service.js';
import type { GatewayToolsService } from '../endpoint/gateway-tools.service.js';
import type { RequestHeaders } from '../upstreams/trace-context.js';
import { argumentsRefusal } from './argument-bounds.js';

// tools/call for one surface, whoever carried it in: the SDK's Server (every request it serves) or the warm-call
// path (decision 0125: a warm session's tools/call, answered without the SDK's transport). One function, so both
// refuse, map and count a call the same way; it answers the upstream's result or throws the ProtocolError the client
// is to receive (a tool error is a result with isError, never an error).

export interface ToolCallParams {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** How one call reaches back to the client that made it; nothing else is ever sent to that client. */
export interface ToolCallChannel {
  readonly signal: AbortSignal;
  /** The HTTP request's headers (its trace context, decision 0106). */
  readonly requestHeaders: RequestHeaders;
  /** The MCP session that made the call; absent for a sessionless request. */
  readonly sessionId?: string;
  /** Present when the client asked for this call's progress: sends one notification under the client's token. */
  readonly sendProgress?: (progress: { progress: number; total?: number; message?: string }) => Promise<void>;
  /** Present when this session's client declared form elicitation (decision 0107). */
  readonly elicit?: ElicitationRelay;
}

export type ToolCallHandler = (
  caller: GatewayCaller,
  params: ToolCallParams,
  channel: ToolCallChannel,
) => Promise<CallToolResult>;

export interface ToolCallHandlerOptions {
  readonly tools: GatewayToolsService;
  readonly surfaces: GatewaySurfaceService;
  readonly scope: SurfaceScope;
  /** How each tools/call ended, with the caller it was for (metrics and the workspace's activity). */
  readonly onToolCall?: (outcome: string, caller: GatewayCaller) => void;
}

export function catalogUnavailable(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InternalError, 'The workspace catalog is unavailable', {
    reason: 'catalog_unavailable',
  });
}

export function upstreamUnavailable(server: string, detail: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InternalError, 'The upstream server is unavailable', {
    reason: 'upstream_unavailable',
    server,
    detail,
  });
}

/**
 * The upstream needed the caller's answer and the caller could not be asked (never the upstream's question). A
 * caller that declared no elicitation is told the capability it lacks (-32021, the 2026 spec's own code, its data
 * in the spec's shape with our reason beside it); one that could not be asked for another reason (a request no
 * caller is asked during, calls of two sessions in flight on one connection) would not be helped by declaring it,
 * so it is not told to: that is our limit, an internal error naming which.
 */
export function inputUnavailable(server: string, refusal: ElicitationRefusal): ProtocolError {
  if (refusal === 'elicitation_unsupported')
    return new ProtocolError(
      ProtocolErrorCode.MissingRequiredClientCapability,
      'The upstream server needs input this client did not declare it can give',
      { reason: refusal, requiredCapabilities: { elicitation: {} } },
    );
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    'The upstream server needs input it cannot be given',
    {
      reason: refusal,
      server,
    },
  );
}

/** The caller's surface now; the passthrough's server gone since admission is refused like an unknown one. */
export async function surfaceFor(
  surfaces: GatewaySurfaceService,
  caller: GatewayCaller,
  scope: SurfaceScope,
): Promise<ServedSurface> {
  const read = await surfaces.surface(caller, scope);
  if (read.ok) return read.surface;
  if (read.reason === 'not_served')
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'This server is not served', {
      reason: 'not_served',
    });
  throw catalogUnavailable();
}

export function toolCallHandler(options: ToolCallHandlerOptions): ToolCallHandler {
  const { scope, surfaces, tools } = options;
  return async (caller, params, channel) => {
    // Before anything else: arguments past a bound never reach the catalog, let alone an upstream (0130).
    const refused = argumentsRefusal(params.arguments);
    if (refused !== undefined) {
      options.onToolCall?.('invalid_arguments', caller);
      throw refused;
    }
    let name = params.name;
    if (scope.kind === 'server') {
      // The passthrough's own name to the catalog's minted one: the tools service resolves that, through the
      // same policy, to this same server's tool (a name this surface does not hold is refused here).
      const served = (await surfaceFor(surfaces, caller, scope)).toolsByName.get(name);
      if (served === undefined) {
        options.onToolCall?.('unknown_tool', caller);
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown tool', { reason: 'unknown_tool' });
      }
      name = served.exposed.name;
    }
    // Every relayed progress is written before the result: the result ends the call's stream, and a progress
    // after it is lost to the client (the upstream's order is kept by libs/mcp-client; this keeps ours).
    const relayed: Promise<void>[] = [];
    const { sendProgress } = channel;
    const answer = await tools.call(caller, name, params.arguments, {
      signal: channel.signal,
      // This request's own trace context and session: for this call only (decisions 0106, 0107).
      requestHeaders: channel.requestHeaders,
      ...(channel.sessionId === undefined ? {} : { sessionId: channel.sessionId }),
      ...(channel.elicit === undefined ? {} : { onElicitation: channel.elicit }),
      ...(sendProgress === undefined
        ? {}
        : { onProgress: (progress) => void relayed.push(sendProgress(progress).catch(() => undefined)) }),
    });
    await Promise.all(relayed);
    options.onToolCall?.(
      answer.ok ? (answer.result.isError === true ? 'tool_error' : 'ok') : answer.reason,
      caller,
    );
    if (answer.ok) return answer.result;
    switch (answer.reason) {
      case 'unknown_tool':
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown tool', { reason: answer.reason });
      case 'invalid_arguments':
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid arguments', {
          reason: answer.reason,
          path: answer.path,
          problem: answer.problem,
        });
      case 'catalog_unavailable':
        throw catalogUnavailable();
      case 'upstream_unavailable':
        throw upstreamUnavailable(answer.server, answer.detail);
      case 'input_unavailable':
        throw inputUnavailable(answer.server, answer.refusal);
    }
  };
}
