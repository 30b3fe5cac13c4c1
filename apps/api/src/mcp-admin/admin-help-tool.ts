import { MCP_HELP_TOOL } from '@gatehouse/commands';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal';
import type { AdminTool } from './admin-tools';

// `command_help` (decision 0112): the one tool that is no command. It lists what THIS caller may call (the same
// filter tools/list applies: kind, pool, scope) with each tool's command, scope and hints, and the caller's own
// kind and scopes, so an agent can tell "not allowed" from "not there" without trying.

const HINT_SCHEMA = { type: 'boolean' };

export const HELP_TOOL: Tool = {
  name: MCP_HELP_TOOL,
  title: 'What this caller may use',
  description:
    'Lists the admin tools this credential may call (its kind and scopes decide), each with its command, ' +
    'scope and hints. Tools are named command_<command name with _ for each dot>.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: {
    type: 'object',
    properties: {
      caller: {
        type: 'object',
        properties: { kind: { type: 'string' }, scopes: { type: 'array', items: { type: 'string' } } },
        required: ['kind', 'scopes'],
      },
      tools: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            command: { type: 'string' },
            summary: { type: 'string' },
            scope: { type: 'string' },
            readOnly: HINT_SCHEMA,
            destructive: HINT_SCHEMA,
            idempotent: HINT_SCHEMA,
          },
          required: ['name', 'command', 'summary', 'scope', 'readOnly', 'destructive', 'idempotent'],
        },
      },
    },
    required: ['caller', 'tools'],
  },
  annotations: {
    title: 'Help',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
};

export function helpResult(principal: Principal, tools: readonly AdminTool[]): CallToolResult {
  const listed = tools.map(({ name, command, tool }) => ({
    name,
    command: command.name,
    summary: command.summary,
    scope: command.scope,
    readOnly: tool.annotations?.readOnlyHint === true,
    destructive: tool.annotations?.destructiveHint === true,
    idempotent: tool.annotations?.idempotentHint === true,
  }));
  const lines = [
    `Caller: ${principal.via} token, scopes ${principal.scopes.join(' ') || '(none)'}.`,
    listed.length === 0 ? 'No admin tool is open to this credential.' : `${listed.length} tools:`,
    ...listed.map(
      (t) =>
        `- ${t.name} (${t.command}, scope ${t.scope}${t.readOnly ? ', read-only' : t.destructive ? ', destructive' : ''}): ${t.summary}`,
    ),
  ];
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { caller: { kind: principal.via, scopes: [...principal.scopes] }, tools: listed },
  };
}
