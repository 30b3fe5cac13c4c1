import type { Metadata } from 'next';
import Link from 'next/link';
import { listWorkspaces } from '@/server/api-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { dashboardConfig } from '@/server/dashboard-env';
import { refusalReasonLabel } from '@/server/gateway-activity-words';
import { getGatewayActivity } from '@/server/gateway-queries';
import { gatewayEndpoint } from '@/server/gateway-snippets';
import { AccessFailure } from '@/ui/access-states';
import { DataTable } from '@/ui/data-table';
import { Callout, EmptyState, ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import serverStyles from '@/ui/servers/servers.module.css';

export const metadata: Metadata = { title: 'Gateway' };

// The gateway endpoint of every workspace (docs/architecture/gateway.md); each workspace's page has the
// client configuration to copy. With them, each workspace's live numbers (gateway.activity, decision 0118):
// open sessions, calls of the last hour and its refusals by reason, read on each load for the first
// ACTIVITY_READS workspaces (one read each).
const ACTIVITY_READS = 50;

// Next.js requires a page as the module's default export.
export default async function GatewayPage() {
  const access = await pageAccess('readWorkspaces');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can } = access;
  const config = dashboardConfig();
  const gatewayUrl = config.ok ? config.config.GATEWAY_URL : undefined;
  const workspaces = await listWorkspaces({ limit: 200 });
  if (!workspaces.ok) redirectIfSessionEnded(workspaces.problem);
  const listed = workspaces.ok ? workspaces.data.items : [];
  const activities = new Map(
    can.readCatalog
      ? await Promise.all(
          listed
            .slice(0, ACTIVITY_READS)
            .map(async (workspace) => [workspace.id, await getGatewayActivity(workspace.id)] as const),
        )
      : [],
  );
  function activityCells(workspaceId: string) {
    const activity = activities.get(workspaceId);
    if (activity === undefined)
      return [0, 1, 2].map((i) => (
        <span key={`activity-${i}`} className="muted">
          {can.readCatalog ? `Not read (only the first ${ACTIVITY_READS})` : 'Not shown'}
        </span>
      ));
    if (!activity.ok)
      return [0, 1, 2].map((i) => (
        <span key={`activity-${i}`} className="muted">
          Could not load ({activity.problem.code})
        </span>
      ));
    const { liveSessions, calls, refusals } = activity.data;
    return [
      <span key="sessions">{liveSessions}</span>,
      <span key="calls">{calls.total}</span>,
      refusals.byReason.length === 0 ? (
        <span key="refusals">0</span>
      ) : (
        <ul key="refusals" className="stack-sm">
          {refusals.byReason.map((entry) => (
            <li key={entry.reason}>
              {entry.count} × {refusalReasonLabel(entry.reason)}
            </li>
          ))}
        </ul>
      ),
    ];
  }
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
            { id: 'sessions', label: 'Open sessions', numeric: true },
            { id: 'calls', label: 'Tool calls (last hour)', numeric: true },
            { id: 'refusals', label: 'Refused (last hour), by reason' },
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
              ...activityCells(workspace.id),
            ],
            sort: [workspace.name, null, null, null, null],
            search: workspace.name,
          }))}
        />
      )}
    </div>
  );
}
