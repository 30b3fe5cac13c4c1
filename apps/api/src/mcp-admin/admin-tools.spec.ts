import { COMMANDS, MCP_HELP_TOOL, mcpToolNameOf, mcpWithheldReason, surfacesOf } from '@gatehouse/commands';
import { problemJson } from '@gatehouse/platform';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CommandHandlers } from '../commands/command-handler';
import { HELP_TOOL } from './admin-help-tool';
import { adminToolTable, commandOfToolName } from './admin-tools';

// The tool table over the whole registry, without a database: which commands become tools (never a withheld
// one), and that every schema is one the SDK client's own validator (Ajv, as the 1.32 client builds it) compiles
// and that a refusal's problem passes every output schema (the client validates error results too).

// The table binds handlers but never calls them here.
const handlers: CommandHandlers = Object.fromEntries(
  COMMANDS.map((c) => [c.name, { execute: () => Promise.reject(new Error(`${c.name} is not run here`)) }]),
);
const table = adminToolTable(handlers);
const validator = new AjvJsonSchemaValidator();

describe('the admin tool table', () => {
  it('holds one tool per offered command and nothing withheld', () => {
    const offered = COMMANDS.filter((c) => surfacesOf(c).mcp !== null);
    expect([...table.keys()].sort()).toEqual(offered.map((c) => mcpToolNameOf(c.name)).sort());
    expect(table.has(MCP_HELP_TOOL)).toBe(false);
    const withheld = COMMANDS.filter((c) => mcpWithheldReason(c) !== null);
    expect(withheld.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'approvals.requests.decide',
        'approvals.revoke',
        'hostPolicy.put',
        'tokens.create',
      ]),
    );
    for (const command of withheld) expect(table.has(mcpToolNameOf(command.name))).toBe(false);
    // Undeclared ones too (fail closed): leases, catalog submit, revocations, variable writes.
    for (const name of ['leases.issue', 'catalog.submit', 'revocations.list', 'definitions.variables.set'])
      expect(table.has(mcpToolNameOf(name))).toBe(false);
  });

  it('finds the command behind a tool name, offered or not', () => {
    expect(commandOfToolName('command_approvals_requests_decide')?.name).toBe('approvals.requests.decide');
    expect(commandOfToolName('approvals.requests.decide')).toBeUndefined();
    expect(commandOfToolName('command_nothing')).toBeUndefined();
  });

  it('gives schemas the SDK client compiles, and a problem passes every output schema', () => {
    const problem = problemJson({
      status: 404,
      code: 'not_found',
      title: 'Not found',
      detail: 'No such thing.',
    });
    for (const { tool } of [...table.values(), { tool: HELP_TOOL }]) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(() => validator.getValidator(tool.inputSchema)).not.toThrow();
      expect(() => validator.getValidator(tool.outputSchema ?? {})).not.toThrow();
    }
    for (const { tool } of table.values())
      expect({
        tool: tool.name,
        valid: validator.getValidator(tool.outputSchema ?? {})(problem).valid,
      }).toEqual({
        tool: tool.name,
        valid: true,
      });
  });

  it('keeps input strict: an unknown field fails the input schema as it fails the command', () => {
    const get = table.get('command_workspaces_get');
    const check = validator.getValidator(get?.tool.inputSchema ?? {});
    expect(check({ workspaceId: '3f0e1c1e-8d0b-4b53-9f3f-0c8f7a7f6a11' }).valid).toBe(true);
    expect(check({ workspaceId: '3f0e1c1e-8d0b-4b53-9f3f-0c8f7a7f6a11', extra: 1 }).valid).toBe(false);
  });
});
