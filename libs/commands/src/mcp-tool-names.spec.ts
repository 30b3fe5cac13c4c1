import {
  COMMAND_NAME_PATTERN,
  MAX_MCP_TOOL_NAME_LENGTH,
  MCP_HELP_TOOL,
  mcpToolNameOf,
} from './mcp-tool-names';
import { surfacesOf } from './command';
import { COMMANDS } from './registry';

// The tool-name rule of admin MCP over the whole registry: every name fits the charset model APIs take, and no
// two commands (nor a command and command_help) share a tool name.

const MODEL_API_TOOL_NAME = /^[A-Za-z0-9_-]+$/;
const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

describe('admin MCP tool names', () => {
  it('maps the dotted name with a prefix and underscores', () => {
    expect(mcpToolNameOf('workspaces.list')).toBe('command_workspaces_list');
    expect(mcpToolNameOf('approvals.requests.open')).toBe('command_approvals_requests_open');
    expect(mcpToolNameOf('me.get')).toBe('command_me_get');
  });

  it('gives every command of the registry a name of the charset, without collisions', () => {
    const names = new Map<string, string>();
    for (const command of COMMANDS) {
      expect(command.name).toMatch(COMMAND_NAME_PATTERN);
      const tool = mcpToolNameOf(command.name);
      expect(tool).toMatch(MCP_TOOL_NAME);
      expect(tool).toMatch(MODEL_API_TOOL_NAME);
      expect(tool.length).toBeLessThanOrEqual(MAX_MCP_TOOL_NAME_LENGTH);
      expect(tool).not.toBe(MCP_HELP_TOOL);
      expect(names.get(tool)).toBeUndefined();
      names.set(tool, command.name);
    }
    expect(names.size).toBe(COMMANDS.length);
  });

  it('is one-to-one because command names carry no underscore', () => {
    // Two names that differ only by . versus _ would meet; the pattern refuses the underscore.
    expect('a.b_c').not.toMatch(COMMAND_NAME_PATTERN);
    expect(mcpToolNameOf('a.b_c')).toBe(mcpToolNameOf('a_b.c'));
  });

  it('offers over MCP only names the rule maps', () => {
    const offered = COMMANDS.filter((c) => surfacesOf(c).mcp !== null).map((c) => mcpToolNameOf(c.name));
    expect(new Set(offered).size).toBe(offered.length);
  });
});
