// How a command is named as an admin-over-MCP tool (decision 0112). The rule is part of the public
// surface (README "Admin over MCP"), so it never changes for an existing command:
//
//   `command_` + the command's dotted name with every `.` written as `_`
//   workspaces.list -> command_workspaces_list, approvals.requests.open -> command_approvals_requests_open
//
// The MCP charset (`[A-Za-z0-9_.-]`, 1-128) would take the dots as they are, but many model APIs take only
// `[A-Za-z0-9_-]` up to 64 characters, and an agent's client forwards our names to them. Command names are
// camelCase segments without `_` (COMMAND_NAME_PATTERN, held by a spec over the registry), so the mapping is
// one-to-one and never meets `command_help`, the one tool that is no command.

/** Every tool name of admin MCP starts with this. */
export const MCP_TOOL_PREFIX = 'command_';

/** The tool that lists what the caller may use; no command maps to it (`help` is no command name). */
export const MCP_HELP_TOOL = 'command_help';

/** What a command name looks like: camelCase segments joined by dots, no `_`, so the tool name is reversible. */
export const COMMAND_NAME_PATTERN = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)*$/;

/** The longest tool name a model API commonly takes (OpenAI's and Anthropic's function names). */
export const MAX_MCP_TOOL_NAME_LENGTH = 64;

/** The admin-over-MCP tool name of a command. */
export function mcpToolNameOf(commandName: string): string {
  return `${MCP_TOOL_PREFIX}${commandName.replaceAll('.', '_')}`;
}
