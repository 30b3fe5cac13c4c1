import { gatewayActivityInput, gatewayActivityView } from '@gatehouse/contracts';
import { defineCommand } from '../command';
import { MCP_READ } from '../mcp-offers';

// gateway.activity (docs/decisions/0118-gateway-activity.md): the dashboard's Gateway panel's
// live numbers, for people who see the workspace. The gateway replicas write them to Redis (never Postgres);
// the API reads them only after the workspace is found in the caller's tenant under row-level security.

export { gatewayActivityView };

export const getGatewayActivity = defineCommand({
  name: 'gateway.activity',
  summary:
    "A workspace's gateway activity now: open MCP sessions over the live replicas, tool calls of the last hour " +
    'by outcome, refusals of its own callers by reason (rate limits, unknown sessions or servers), per minute',
  scope: 'catalog:read',
  kind: 'query',
  input: gatewayActivityInput,
  output: gatewayActivityView,
  http: { method: 'GET', path: '/v1/workspaces/:workspaceId/gateway-activity' },
  graphql: { field: 'gatewayActivity' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'dependency_unavailable'],
  callers: ['session', 'user'],
});
