import { getWorkspaceCatalog } from '@gatehouse/commands';
import { catalogDocument, discoveryFailureLine, type WorkspaceCatalogServer } from '@gatehouse/contracts';
import { apiClientFor } from '../api-client/api-target';
import { parseCommandArgs, required } from '../cli-args';
import { displayText, renderTable } from '../output/table';
import { API_HELP, API_OPTIONS, printHelp, type CliCommand } from './cli-command';

/** The STATE cell: the state, and the reason word of a reported discovery failure (decision 0142). */
export function stateOf(server: Pick<WorkspaceCatalogServer, 'state' | 'discoveryFailure'>): string {
  return server.discoveryFailure ? `${server.state} (${server.discoveryFailure.reason})` : server.state;
}

/**
 * Under the table, one line per server whose discovery failed, whole (a table cell is cut at 80 characters):
 * `github: pending_discovery (protocol_version_refused: the server refused every protocol version we speak)`.
 */
export function discoveryFailureLines(
  servers: readonly Pick<WorkspaceCatalogServer, 'name' | 'state' | 'discoveryFailure'>[],
): string[] {
  return servers.flatMap((server) => {
    const failure = server.discoveryFailure;
    if (!failure) return [];
    return [displayText(`${server.name}: ${server.state} (${discoveryFailureLine(failure)})`, 400)];
  });
}

export const catalogCommand: CliCommand = {
  name: 'catalog',
  usage: 'gatehouse catalog --workspace <id> [--json]',
  summary: 'The tools you may use in a workspace now: its approved servers and their namespaced tools.',
  help: ['  --workspace <id>   the workspace', ...API_HELP],
  async run(args, io) {
    const { values } = parseCommandArgs(args, { ...API_OPTIONS, workspace: { type: 'string' } });
    if (values.help) return printHelp(io, catalogCommand);
    const workspaceId = required(values.workspace, 'workspace');
    const client = await apiClientFor(io, values.api);
    const catalog = await client.call(getWorkspaceCatalog, { workspaceId });
    if (values.json) return io.out(JSON.stringify(catalog));
    const document = catalogDocument.parse(catalog.document);
    const toolCount = new Map(
      document.servers.map((server) => [server.identity.server, server.tools.length]),
    );
    const servers = catalog.servers.map((server) => [
      server.name,
      stateOf(server),
      toolCount.get(server.name) ?? 0,
      server.complete ? 'yes' : 'no',
      server.stale ? 'yes' : 'no',
      server.fetchedAt,
    ]);
    for (const line of renderTable(['SERVER', 'STATE', 'TOOLS', 'COMPLETE', 'STALE', 'FETCHED'], servers))
      io.out(line);
    const failures = discoveryFailureLines(catalog.servers);
    if (failures.length > 0) io.out('');
    for (const line of failures) io.out(line);
    const tools = document.servers.flatMap((server) =>
      server.tools.map((tool) => [tool.name, server.identity.server, tool.description ?? '']),
    );
    if (tools.length === 0) return;
    io.out('');
    for (const line of renderTable(['TOOL', 'SERVER', 'DESCRIPTION'], tools)) io.out(line);
  },
};
