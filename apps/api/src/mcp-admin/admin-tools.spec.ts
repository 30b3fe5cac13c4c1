import { COMMANDS, MCP_HELP_TOOL, mcpToolNameOf, mcpWithheldReason, surfacesOf } from '@gatehouse/commands';
import { problemJson } from '@gatehouse/platform';
import { AjvJsonSchemaValidator as V2Validator } from '@modelcontextprotocol/client/validators/ajv';
import { AjvJsonSchemaValidator as V1Validator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CommandHandlers } from '../commands/command-handler';
import { HELP_TOOL } from './admin-help-tool';
import { adminToolTable, commandOfToolName } from './admin-tools';

// The tool table over the whole registry, without a database: which commands become tools (never a withheld
// one), and that every schema is one the SDK clients' own validators compile (Ajv, as the 1.32 client and the v2
// client build it: admin MCP serves both, decision 0145) and that a refusal's problem passes every output schema
// (the 1.32 client validates error results too).

// The table binds handlers but never calls them here.
const handlers: CommandHandlers = Object.fromEntries(
  COMMANDS.map((c) => [c.name, { execute: () => Promise.reject(new Error(`${c.name} is not run here`)) }]),
);
const table = adminToolTable(handlers);

type SchemaCheck = (schema: object) => (value: unknown) => { valid: boolean };
const v1 = new V1Validator();
const v2 = new V2Validator();
// Each SDK types its schema parameter its own way; both take the JSON Schema object a tool carries.
const CLIENT_VALIDATORS: [string, SchemaCheck][] = [
  ['SDK 1.32', (schema) => v1.getValidator(schema as Parameters<V1Validator['getValidator']>[0])],
  ['SDK v2', (schema) => v2.getValidator(schema as Parameters<V2Validator['getValidator']>[0])],
];

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

  it.each(CLIENT_VALIDATORS)(
    'gives schemas the %s client compiles, and a problem passes every output schema',
    (_sdk, check) => {
      const problem = problemJson({
        status: 404,
        code: 'not_found',
        title: 'Not found',
        detail: 'No such thing.',
      });
      for (const { tool } of [...table.values(), { tool: HELP_TOOL }]) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(() => check(tool.inputSchema)).not.toThrow();
        expect(() => check(tool.outputSchema ?? {})).not.toThrow();
      }
      for (const { tool } of table.values())
        expect({
          tool: tool.name,
          valid: check(tool.outputSchema ?? {})(problem).valid,
        }).toEqual({
          tool: tool.name,
          valid: true,
        });
    },
  );

  it.each(CLIENT_VALIDATORS)(
    'keeps input strict for the %s client: an unknown field fails the input schema as it fails the command',
    (_sdk, schemaCheck) => {
      const get = table.get('command_workspaces_get');
      const check = schemaCheck(get?.tool.inputSchema ?? {});
      expect(check({ workspaceId: '3f0e1c1e-8d0b-4b53-9f3f-0c8f7a7f6a11' }).valid).toBe(true);
      expect(check({ workspaceId: '3f0e1c1e-8d0b-4b53-9f3f-0c8f7a7f6a11', extra: 1 }).valid).toBe(false);
    },
  );
});
