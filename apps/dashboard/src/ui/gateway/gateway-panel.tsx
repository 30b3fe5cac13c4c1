import {
  GATEWAY_TOKEN_VARIABLE,
  claudeAddCommand,
  clientServerName,
  gatewayEndpoint,
  mcpJsonSnippet,
} from '@/server/gateway-snippets';
import type { ApiResult } from '@/server/api-client';
import type { GatewayActivityView } from '@/views/gateway-views';
import { CopyButton } from '../copy-button';
import { Callout, Panel } from '../feedback';
import serverStyles from '../servers/servers.module.css';
import tableStyles from '../table.module.css';
import { GatewayActivitySection } from './gateway-activity';

// The workspace's gateway endpoint (apps/gateway, `/mcp/w/:workspaceId`) and what to paste into an MCP client to
// use it. The gateway's address is the operator's (the dashboard's GATEWAY_URL); without it the panel says so
// rather than guess. The snippets never hold a token: the client reads GATEHOUSE_TOKEN from its environment.
// With `activity` (gateway.activity, decision 0118) the panel opens with the workspace's live numbers.

export function GatewayPanel({
  gatewayUrl,
  workspace,
  activity,
}: {
  gatewayUrl: string | undefined;
  workspace: { readonly id: string; readonly name: string };
  activity?: ApiResult<GatewayActivityView>;
}) {
  const live =
    activity === undefined ? null : (
      <GatewayActivitySection
        activity={activity}
        refreshPath={`/workspaces/${encodeURIComponent(workspace.id)}`}
        classes={{ table: tableStyles.table, numeric: tableStyles.numeric }}
      />
    );
  if (gatewayUrl === undefined) {
    return (
      <Panel
        id="workspace-gateway"
        title="Gateway"
        description="The MCP endpoint agents use for this workspace."
      >
        <Callout tone="info" title="The gateway’s address is not configured">
          <p>
            The operator sets <code>GATEWAY_URL</code> for the dashboard to show this workspace’s endpoint and
            the client configuration to copy.
          </p>
        </Callout>
        {live}
      </Panel>
    );
  }
  const endpoint = gatewayEndpoint(gatewayUrl, workspace.id);
  const name = clientServerName(workspace.name);
  const mcpJson = mcpJsonSnippet(name, endpoint);
  const command = claudeAddCommand(name, endpoint);
  return (
    <Panel
      id="workspace-gateway"
      title="Gateway"
      description="One MCP server with every tool approved in this workspace, for the caller’s principal. Agents connect with an agent token of this workspace (or your own user token)."
    >
      <div className="stack">
        {live}
        <div className="stack-sm">
          <h3>Endpoint</h3>
          <pre className={serverStyles.codeBlock}>{endpoint}</pre>
          <CopyButton value={endpoint} label="Copy the endpoint" />
        </div>
        <div className="stack-sm">
          <h3>
            <code>.mcp.json</code>
          </h3>
          <p className="muted">
            Set <code>{GATEWAY_TOKEN_VARIABLE}</code> in the client’s environment to the token; the file holds
            none.
          </p>
          <pre className={serverStyles.codeBlock}>{mcpJson}</pre>
          <CopyButton value={mcpJson} label="Copy .mcp.json" />
        </div>
        <div className="stack-sm">
          <h3>From a shell (Claude Code)</h3>
          <pre className={serverStyles.codeBlock}>{command}</pre>
          <CopyButton value={command} label="Copy the command" />
        </div>
      </div>
    </Panel>
  );
}
