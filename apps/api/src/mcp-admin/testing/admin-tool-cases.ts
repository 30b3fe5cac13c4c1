import {
  COMMANDS,
  MCP_HELP_TOOL,
  mcpToolNameOf,
  surfacesOf,
  type CommandDefinition,
} from '@gatehouse/commands';
import type { CrossTenantHarnessOptions, RouteCase } from '@gatehouse/testing';
import { pathParamsOf } from '../../admin-surfaces/rest/command-route-schema';

// The cross-tenant cases of the admin tools, derived from the REST route cases of the same commands: a tool runs
// the very use case its route runs, so B's call at A's ids must answer what B's request did (not_found, or a
// result without A's data). The arguments are what REST would have merged into the input: the path's ids, then
// the query string or the JSON body. A command offered over MCP without a REST case gets no tool case, and the
// harness then reports its tool as uncovered.

export type McpToolCase = NonNullable<CrossTenantHarnessOptions['mcp']>['cases'][number];

function argumentsOf(command: CommandDefinition, routeCase: RouteCase): Record<string, unknown> {
  const [pathname = '', query = ''] = routeCase.url.split('?');
  const pattern = command.http.path.split('/');
  const actual = pathname.split('/');
  const args: Record<string, unknown> = {};
  const params = new Set(pathParamsOf(command.http.path));
  pattern.forEach((segment, index) => {
    const name = segment.slice(1);
    if (segment.startsWith(':') && params.has(name)) args[name] = decodeURIComponent(actual[index] ?? '');
  });
  for (const [key, value] of new URLSearchParams(query)) args[key] = value;
  if (
    routeCase.payload !== null &&
    typeof routeCase.payload === 'object' &&
    !Array.isArray(routeCase.payload)
  )
    Object.assign(args, routeCase.payload);
  return args;
}

export interface AdminToolCaseOptions {
  /**
   * Arguments laid over the derived ones, by command name, where the REST case cannot be replayed as it is: a
   * create the route already made (a name now taken), a read whose answer grew during the run (B's audit log now
   * echoes the ids B itself sent at A in earlier cases).
   */
  readonly overrides?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly commands?: readonly CommandDefinition[];
}

export function adminToolCases(
  routeCases: readonly RouteCase[],
  options: AdminToolCaseOptions = {},
): McpToolCase[] {
  const commands = options.commands ?? COMMANDS;
  const cases: McpToolCase[] = [{ tool: MCP_HELP_TOOL, expect: 'no_victim_data' }];
  for (const command of commands.filter((c) => surfacesOf(c).mcp !== null)) {
    const route = `${command.http.method} ${command.http.path}`;
    for (const routeCase of routeCases.filter((c) => c.route === route)) {
      cases.push({
        tool: mcpToolNameOf(command.name),
        arguments: { ...argumentsOf(command, routeCase), ...(options.overrides?.[command.name] ?? {}) },
        ...(routeCase.credentials?.authorization !== undefined ? { credentials: routeCase.credentials } : {}),
        expect: routeCase.expect,
      });
    }
  }
  return cases;
}
