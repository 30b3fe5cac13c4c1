import { serverStatusInput, serverStatusView } from '@gatehouse/contracts';
import { defineCommand } from '../command';
import { MCP_READ } from '../mcp-offers';

// servers.status (docs/decisions/0099-server-status-read.md): the server page's connection
// state and lease holders, for people who see the workspace. It reads what workers reported (server_probes)
// and the live leases; it never resolves the definition, so a name no definition has answers empty, not 404.

export { serverStatusView };

export const getServerStatus = defineCommand({
  name: 'servers.status',
  summary:
    "One server's connection state in a workspace (the probe a worker last reported, with its failure class) " +
    'and who holds a live lease on it (token name and kind, pool, principal, issued and expiry); no transport',
  scope: 'catalog:read',
  kind: 'query',
  input: serverStatusInput,
  output: serverStatusView,
  http: { method: 'GET', path: '/v1/workspaces/:workspaceId/servers/:serverName/status' },
  graphql: { field: 'serverStatus' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'bad_cursor'],
  callers: ['session', 'user'],
});
