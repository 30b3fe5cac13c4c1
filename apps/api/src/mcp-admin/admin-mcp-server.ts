import { MCP_HELP_TOOL } from '@gatehouse/commands';
import { ProblemError, logMappedProblem, problemHeaders, toProblem, type Logger } from '@gatehouse/platform';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import { runCommand, type RefusalObserver } from '../commands/command-runner';
import { helpResult, HELP_TOOL } from './admin-help-tool';
import { outputResult, problemResult } from './admin-tool-results';
import { commandOfToolName, toolsFor, type AdminToolTable } from './admin-tools';

// The SDK's low-level Server for admin over MCP (decision 0112): tools/list and tools/call are our handlers over
// the tool table generated from the registry. A call runs through runCommand, the one path REST and GraphQL take
// (kind, pool, scope, strict input, the use case, the output parsed through its schema), with the same refusal
// observer, so scopes and the refused-writes audit are REST's exactly. The caller is the one the route
// authenticated for THIS request (the transport's authInfo).

/** Where the route leaves the request's caller for the handlers (the transport's `req.auth.extra`). */
export const PRINCIPAL_KEY = 'gatehousePrincipal';

export interface AdminServerOptions {
  readonly table: AdminToolTable;
  readonly workerPools: WorkerPools;
  readonly logger: Logger;
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly onUndeclaredProblem: (commandName: string, code: string) => void;
  readonly onRefused?: RefusalObserver;
  /**
   * Headers the HTTP answer of this request must carry (Retry-After when a dependency was momentarily away): a
   * tool call's refusal is a result, so the route sets them on the response the transport then writes.
   */
  readonly answerHeaders?: (headers: Record<string, string>) => void;
}

function principalOf(extra: { authInfo?: { extra?: Record<string, unknown> } }): Principal {
  const principal = extra.authInfo?.extra?.[PRINCIPAL_KEY];
  // The route authenticates every request before the transport sees it: no caller is our bug.
  if (principal === undefined)
    throw new McpError(ErrorCode.InternalError, 'Unauthenticated request reached the server');
  return principal as Principal;
}

/**
 * One validator for every per-request Server: the SDK builds a new Ajv (with its formats) per Server otherwise,
 * which was most of what a stateless call costs beyond REST (bench admin-mcp-call: 2.8 times REST's server CPU
 * per call with it, 1.8 without). It only serves elicitation, which this server never asks for.
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/** A name no offered tool has: refused alike whether it maps to a withheld command or to nothing. */
function unknownTool(): McpError {
  return new McpError(ErrorCode.InvalidParams, 'Unknown tool', { reason: 'unknown_tool' });
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
      jsonSchemaValidator: SHARED_VALIDATOR,
      instructions:
        'Gatehouse admin commands, one tool per command offered over MCP (command_<name with _ for dots>). ' +
        'Call command_help for what this credential may use. Deciding and revoking approvals, the host policy, ' +
        'tokens, invitations and sign-in are never offered here.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra): Promise<ListToolsResult> => {
    const principal = principalOf(extra);
    return {
      tools: [
        HELP_TOOL,
        ...toolsFor(options.table, principal, options.workerPools).map((entry) => entry.tool),
      ],
    };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const principal = principalOf(extra);
    const name = request.params.name;
    if (name === MCP_HELP_TOOL)
      return helpResult(principal, toolsFor(options.table, principal, options.workerPools));

    const entry = options.table.get(name);
    if (entry === undefined) {
      // An agent reaching for a withheld write (deciding its own approval, say) is worth an audit row.
      const withheld = commandOfToolName(name);
      if (withheld !== undefined && options.onRefused !== undefined)
        await options.onRefused({ command: withheld, principal, problem: notOffered(), byUseCase: false });
      throw unknownTool();
    }

    try {
      const output = await runCommand({
        command: entry.command,
        handler: entry.handler,
        principal,
        rawInput: request.params.arguments ?? {},
        workerPools: options.workerPools,
        signal: extra.signal,
        onUndeclaredProblem: options.onUndeclaredProblem,
        ...(options.onRefused !== undefined ? { onRefused: options.onRefused } : {}),
      });
      return outputResult(output);
    } catch (error) {
      if (error instanceof ProblemError && error.status < 500) return problemResult(error.toProblem());
      // REST's mapping: a dependency momentarily away is 503 `dependency_unavailable` with Retry-After.
      const mapped = toProblem(error);
      if (mapped.unavailable !== undefined) options.answerHeaders?.(problemHeaders(mapped));
      if (error instanceof ProblemError) {
        // A 5xx of ours (dependency unavailable, say) keeps its code; its detail is written for clients.
        options.logger.warn({ command: entry.command.name, code: error.code }, 'admin MCP call failed');
        return problemResult(mapped.problem);
      }
      logMappedProblem(
        options.logger,
        mapped,
        error,
        { command: entry.command.name },
        'admin MCP call failed',
      );
      return problemResult(mapped.problem);
    }
  });

  return server;
}
