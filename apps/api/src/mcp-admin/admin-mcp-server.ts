import { MCP_HELP_TOOL } from '@gatehouse/commands';
import { ProblemError, logMappedProblem, problemHeaders, toProblem, type Logger } from '@gatehouse/platform';
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ListToolsResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import { runCommand, type RefusalObserver } from '../commands/command-runner';
import { helpResult, HELP_TOOL } from './admin-help-tool';
import { outputResult, problemResult } from './admin-tool-results';
import { commandOfToolName, toolsFor, type AdminToolTable } from './admin-tools';

// SDK v2's low-level Server for admin over MCP (decisions 0112, 0145), one per request of either protocol era:
// tools/list and tools/call are our handlers over the tool table generated from the registry. A call runs through
// runCommand, the one path REST and GraphQL take (kind, pool, scope, strict input, the use case, the output parsed
// through its schema), with the same refusal observer, so scopes and the refused-writes audit are REST's exactly.
// The caller is the one the route authenticated for THIS request: it arrives in the handler's authInfo, with the
// request's answer-headers hook. The SDK's default JSON Schema validator is kept: it builds its Ajv lazily, on the
// first schema it must check (only an elicitation answer, which this server never asks for), so a per-request
// Server costs no Ajv and none needs sharing.

/** Where the route leaves what the handlers need of THIS request (the handler's `authInfo.extra`). */
export const ADMIN_EXCHANGE_KEY = 'gatehouseAdminExchange';

/** What the route hands the per-request server. */
export interface AdminExchange {
  readonly principal: Principal;
  /**
   * Headers the HTTP answer of this request must carry (Retry-After when a dependency was momentarily away): a
   * tool call's refusal is a result, so the route sets them on the response it writes once the call is answered.
   */
  readonly answerHeaders: (headers: Record<string, string>) => void;
}

export interface AdminServerOptions {
  readonly table: AdminToolTable;
  readonly workerPools: WorkerPools;
  readonly logger: Logger;
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly onUndeclaredProblem: (commandName: string, code: string) => void;
  readonly onRefused?: RefusalObserver;
}

function exchangeOf(ctx: ServerContext): AdminExchange {
  const exchange = ctx.http?.authInfo?.extra?.[ADMIN_EXCHANGE_KEY];
  // The route authenticates every request before the handler sees it: no caller is our bug.
  if (exchange === undefined)
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Unauthenticated request reached the server');
  return exchange as AdminExchange;
}

/** A name no offered tool has: refused alike whether it maps to a withheld command or to nothing. */
function unknownTool(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown tool', { reason: 'unknown_tool' });
}

/** The problem a withheld write is recorded with: for this surface the tool does not exist. */
function notOffered(): ProblemError {
  return new ProblemError({
    status: 404,
    code: 'not_found',
    title: 'Not found',
    detail: 'This command is not offered over admin MCP.',
  });
}

export function createAdminServer(options: AdminServerOptions): Server {
  const server = new Server(
    { name: options.serverInfo.name, version: options.serverInfo.version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Gatehouse admin commands, one tool per command offered over MCP (command_<name with _ for dots>). ' +
        'Call command_help for what this credential may use. Deciding and revoking approvals, the host policy, ' +
        'tokens, invitations and sign-in are never offered here.',
    },
  );

  server.setRequestHandler('tools/list', (_request, ctx): ListToolsResult => {
    const { principal } = exchangeOf(ctx);
    return {
      tools: [
        HELP_TOOL,
        ...toolsFor(options.table, principal, options.workerPools).map((entry) => entry.tool),
      ],
    };
  });

  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const { principal, answerHeaders } = exchangeOf(ctx);
    const name = request.params.name;
    if (name === MCP_HELP_TOOL)
      return server.projectCallToolResult(
        helpResult(principal, toolsFor(options.table, principal, options.workerPools)),
        HELP_TOOL.outputSchema,
      );

    const entry = options.table.get(name);
    if (entry === undefined) {
      // An agent reaching for a withheld write (deciding its own approval, say) is worth an audit row.
      const withheld = commandOfToolName(name);
      if (withheld !== undefined && options.onRefused !== undefined)
        await options.onRefused({ command: withheld, principal, problem: notOffered(), byUseCase: false });
      throw unknownTool();
    }

    // The SDK's own projection for a low-level tools/call (the text block it would add, the 2025 wrap of a
    // non-object result): ours carry both already, so it changes nothing today and keeps the era codec's say.
    const project = (result: CallToolResult) => server.projectCallToolResult(result, entry.tool.outputSchema);
    try {
      const output = await runCommand({
        command: entry.command,
        handler: entry.handler,
        principal,
        rawInput: request.params.arguments ?? {},
        workerPools: options.workerPools,
        signal: ctx.mcpReq.signal,
        onUndeclaredProblem: options.onUndeclaredProblem,
        ...(options.onRefused !== undefined ? { onRefused: options.onRefused } : {}),
      });
      return project(outputResult(output));
    } catch (error) {
      if (error instanceof ProblemError && error.status < 500)
        return project(problemResult(error.toProblem()));
      // REST's mapping: a dependency momentarily away is 503 `dependency_unavailable` with Retry-After.
      const mapped = toProblem(error);
      if (mapped.unavailable !== undefined) answerHeaders(problemHeaders(mapped));
      if (error instanceof ProblemError) {
        // A 5xx of ours (dependency unavailable, say) keeps its code; its detail is written for clients.
        options.logger.warn({ command: entry.command.name, code: error.code }, 'admin MCP call failed');
        return project(problemResult(mapped.problem));
      }
      logMappedProblem(
        options.logger,
        mapped,
        error,
        { command: entry.command.name },
        'admin MCP call failed',
      );
      return project(problemResult(mapped.problem));
    }
  });

  return server;
}
