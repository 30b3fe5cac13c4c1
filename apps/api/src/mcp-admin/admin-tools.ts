import {
  COMMANDS,
  mcpToolNameOf,
  problemsOf,
  surfacesOf,
  type CommandDefinition,
  type McpOffer,
} from '@gatehouse/commands';
import { PROBLEM_CODES } from '@gatehouse/contracts';
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import type { CommandHandler, CommandHandlers } from '../commands/command-handler';
import { authorize } from '../commands/command-runner';
import { handlersFor } from '../admin-surfaces/rest/register-command-routes';

// The admin tools, generated from the command registry like the REST routes and GraphQL fields (decision 0112):
// one tool per command its declaration offers over MCP (surfacesOf: the withholding rules applied), named by the
// one rule (mcpToolNameOf), its schemas from the command's zod schemas, its hints from the offer. Nothing here is
// written per command.

type JsonSchema = Record<string, unknown>;

export interface AdminTool {
  readonly name: string;
  readonly command: CommandDefinition;
  readonly handler: CommandHandler;
  /** What tools/list shows. */
  readonly tool: Tool;
}

/** Tool name -> tool, for the commands offered over MCP only: a name not in it is no tool, whatever it maps to. */
export type AdminToolTable = ReadonlyMap<string, AdminTool>;

/**
 * The problem a refused call answers in `structuredContent` (the REST problem+json body). Part of every tool's
 * outputSchema because the SDK 1.32 client validates an error result's structured content against the output
 * schema too (modelcontextprotocol/typescript-sdk#1943): without it, a refusal would reach such a client as a
 * schema mismatch.
 */
export const PROBLEM_JSON_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  title: 'Problem',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    code: { type: 'string', enum: [...PROBLEM_CODES] },
    detail: { type: 'string' },
    instance: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { path: { type: 'string' }, message: { type: 'string' } },
        required: ['path', 'message'],
      },
    },
  },
  required: ['type', 'title', 'status', 'code'],
});

/** JSON Schema 2020-12 (MCP's default dialect) without the `$schema` marker, which the SDK's Ajv would not know. */
export function toolSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _marker, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

/** The command's output, or (a refusal) the problem; `$defs` stay at the root, where their `$ref`s point. */
function outputSchemaOf(command: CommandDefinition): Tool['outputSchema'] {
  const { $defs, ...output } = toolSchemaOf(command.output, 'output');
  return {
    type: 'object',
    anyOf: [output, PROBLEM_JSON_SCHEMA],
    ...($defs !== undefined ? { $defs } : {}),
  } as Tool['outputSchema'];
}

function annotationsOf(command: CommandDefinition, offer: McpOffer): NonNullable<Tool['annotations']> {
  return {
    title: command.summary,
    readOnlyHint: offer.readOnly,
    destructiveHint: offer.destructive,
    idempotentHint: offer.idempotent,
    // It acts on this deployment's own records, not on an open world.
    openWorldHint: false,
  };
}

function toolOf(command: CommandDefinition, offer: McpOffer): Tool {
  return {
    name: mcpToolNameOf(command.name),
    title: command.summary,
    description:
      `${command.summary} Command \`${command.name}\` (REST ${command.http.method} ${command.http.path}), ` +
      `scope \`${command.scope}\`. A refusal is a result with isError and the problem in structuredContent; ` +
      `its codes: ${problemsOf(command).join(', ')}.`,
    inputSchema: toolSchemaOf(command.input, 'input') as Tool['inputSchema'],
    outputSchema: outputSchemaOf(command),
    annotations: annotationsOf(command, offer),
  };
}

/** Builds the table once at boot; a command offered over MCP without a use case stops the boot, as on REST. */
export function adminToolTable(
  handlers: CommandHandlers,
  commands: readonly CommandDefinition[] = COMMANDS,
): AdminToolTable {
  const offered = commands.filter((command) => surfacesOf(command).mcp !== null);
  const table = new Map<string, AdminTool>();
  for (const [command, handler] of handlersFor(offered, handlers)) {
    const offer = surfacesOf(command).mcp as McpOffer;
    const tool = toolOf(command, offer);
    if (table.has(tool.name)) throw new Error(`two commands share the MCP tool name ${tool.name}`);
    table.set(tool.name, { name: tool.name, command, handler, tool });
  }
  return table;
}

/**
 * Whether this caller may call the command: the runner's own first checks (credential kind, pool, scope), so the
 * list a caller sees is what REST would let it call. The use case still decides per resource.
 */
export function mayCall(command: CommandDefinition, principal: Principal, workerPools: WorkerPools): boolean {
  try {
    authorize(command, principal, workerPools);
    return true;
  } catch {
    return false;
  }
}

/** The tools this caller may call, in registry order. */
export function toolsFor(table: AdminToolTable, principal: Principal, workerPools: WorkerPools): AdminTool[] {
  return [...table.values()].filter((entry) => mayCall(entry.command, principal, workerPools));
}

/** The name of the command a tool name maps to, offered or not (for auditing a call to a withheld write). */
export function commandOfToolName(
  name: string,
  commands: readonly CommandDefinition[] = COMMANDS,
): CommandDefinition | undefined {
  return commands.find((command) => mcpToolNameOf(command.name) === name);
}
