import { getWorkspaceCatalog } from '@gatehouse/commands';
import { catalogDocument } from '@gatehouse/contracts';
import { apiClientFor } from '../api-client/api-target';
import { parseCommandArgs, required } from '../cli-args';
import { renderTable } from '../output/table';
import { API_HELP, API_OPTIONS, printHelp, type CliCommand } from './cli-command';

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
      server.state,
      toolCount.get(server.name) ?? 0,
      server.complete ? 'yes' : 'no',
      server.stale ? 'yes' : 'no',
      server.fetchedAt,
    ]);
    for (const line of renderTable(['SERVER', 'STATE', 'TOOLS', 'COMPLETE', 'STALE', 'FETCHED'], servers))
      io.out(line);
    const tools = document.servers.flatMap((server) =>
      server.tools.map((tool) => [tool.name, server.identity.server, tool.description ?? '']),
    );
    if (tools.length === 0) return;
    io.out('');
    for (const line of renderTable(['TOOL', 'SERVER', 'DESCRIPTION'], tools)) io.out(line);
  },
};
