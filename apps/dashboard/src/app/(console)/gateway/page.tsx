import type { Metadata } from 'next';
import Link from 'next/link';
import { listWorkspaces } from '../../../server/api-queries';
import { pageAccess, redirectIfSessionEnded } from '../../../server/current-session';
import { dashboardConfig } from '../../../server/dashboard-env';
import { gatewayEndpoint } from '../../../server/gateway-snippets';
import { AccessFailure } from '../../../ui/access-states';
import { DataTable } from '../../../ui/data-table';
import { Callout, EmptyState, ProblemCallout } from '../../../ui/feedback';
import { PageHeader } from '../../../ui/page-header';
import serverStyles from '../../../ui/servers/servers.module.css';

export const metadata: Metadata = { title: 'Gateway' };

// The gateway endpoint of every workspace (issue 16 item 2); each workspace's page has the client configuration to
// copy. Live session and call counts are not shown: the gateway does not expose them to the API yet.

// Next.js requires a page as the module's default export.
export default async function GatewayPage() {
  const access = await pageAccess('readWorkspaces');
  if (!access.ok) return <AccessFailure access={access} />;
  const config = dashboardConfig();
  const gatewayUrl = config.ok ? config.config.GATEWAY_URL : undefined;
  const workspaces = await listWorkspaces({ limit: 200 });
  if (!workspaces.ok) redirectIfSessionEnded(workspaces.problem);
  return (
    <div className="stack">
      <PageHeader
        title="Gateway"
        description="Each workspace is one MCP server at the gateway: the tools approved there, for whoever calls with a token of that workspace."
      />
      {gatewayUrl === undefined ? (
        <Callout tone="info" title="The gateway’s address is not configured">
          <p>
            The operator sets <code>GATEWAY_URL</code> for the dashboard to show the endpoints.
          </p>
        </Callout>
      ) : null}
      {!workspaces.ok ? (
        <ProblemCallout problem={workspaces.problem} context="The workspaces could not be loaded" />
      ) : workspaces.data.items.length === 0 ? (
        <EmptyState title="No workspaces yet">Every workspace gets its own endpoint.</EmptyState>
      ) : (
        <DataTable
          caption="Gateway endpoints"
          filterLabel="Filter workspaces"
          initialSort={{ column: 'workspace', direction: 'ascending' }}
          columns={[
            { id: 'workspace', label: 'Workspace', sortable: true },
            { id: 'endpoint', label: 'Endpoint' },
          ]}
          rows={workspaces.data.items.map((workspace) => ({
            id: workspace.id,
            cells: [
              <Link key="workspace" href={`/workspaces/${workspace.id}#workspace-gateway`}>
                {workspace.name}
              </Link>,
              gatewayUrl === undefined ? (
                <span key="endpoint" className="muted">
                  Not configured
                </span>
              ) : (
                <code key="endpoint" className={serverStyles.codeBlock}>
                  {gatewayEndpoint(gatewayUrl, workspace.id)}
                </code>
              ),
            ],
            sort: [workspace.name, null],
            search: workspace.name,
          }))}
        />
      )}
    </div>
  );
}
