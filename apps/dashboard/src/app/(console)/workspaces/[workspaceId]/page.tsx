import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { directoryFromMembers } from '@/server/actor-directory';
import { getWorkspace, listMaintainers, listMembers } from '@/server/api-queries';
import { listApprovalRequests } from '@/server/approval-queries';
import { workspaceActivity } from '@/server/workspace-activity';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { dashboardConfig } from '@/server/dashboard-env';
import { getGatewayActivity } from '@/server/gateway-queries';
import { GatewayPanel } from '@/ui/gateway/gateway-panel';
import { AccessFailure, PageProblem } from '@/ui/access-states';
import { Badge, Callout, EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { firstParam, type SearchParams } from '@/ui/paging';
import { AddMaintainerForm } from '@/ui/workspaces/add-maintainer-form';
import { MaintainerList } from '@/ui/workspaces/maintainer-list';
import { WorkspaceActivityPanel } from '@/ui/workspaces/workspace-activity-panel';
import { WorkspaceDetails } from '@/ui/workspaces/workspace-details';
import { WorkspaceLinks } from '@/ui/workspaces/workspace-links';
import { WorkspaceSettings } from '@/ui/workspaces/workspace-settings';

export const metadata: Metadata = { title: 'Workspace' };

function gatewayUrlOf(): string | undefined {
  const config = dashboardConfig();
  return config.ok ? config.config.GATEWAY_URL : undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Next.js requires a page as the module's default export.
export default async function WorkspacePage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const access = await pageAccess('readWorkspaces');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can } = access;
  const { workspaceId } = await params;
  if (!UUID.test(workspaceId)) notFound();
  const created = firstParam(await searchParams, 'created') === '1';

  const [workspace, maintainers, events, members, openRequests, gatewayActivity] = await Promise.all([
    getWorkspace(workspaceId),
    listMaintainers(workspaceId),
    can.readAudit ? workspaceActivity(workspaceId, 10) : undefined,
    can.readMembers ? listMembers({ limit: 200 }) : undefined,
    can.readApprovals ? listApprovalRequests({ status: 'open', workspaceId, limit: 100 }) : undefined,
    can.readCatalog ? getGatewayActivity(workspaceId) : undefined,
  ]);
  const directory = directoryFromMembers(members?.ok ? members.data.items : []);
  if (!workspace.ok) {
    redirectIfSessionEnded(workspace.problem);
    if (workspace.problem.status === 404) notFound();
    return <PageProblem problem={workspace.problem} title="This workspace could not be loaded" />;
  }
  const ws = workspace.data;
  const pendingHere = openRequests?.ok ? openRequests.data.items.length : undefined;
  const pendingMore = openRequests?.ok ? openRequests.data.nextCursor !== null : false;
  const maintainerIds = new Set(maintainers.ok ? maintainers.data.items.map((m) => m.userId) : []);
  const candidates =
    members?.ok && can.manageWorkspaces
      ? members.data.items
          .filter((member) => !maintainerIds.has(member.userId))
          .map((member) => ({ userId: member.userId, label: `${member.displayName} (${member.email})` }))
      : [];

  return (
    <div className="stack">
      <PageHeader
        breadcrumb={<Link href="/workspaces">Workspaces</Link>}
        title={ws.name}
        description={
          ws.repositoryIdentity ? `Repository ${ws.repositoryIdentity}` : 'No repository recorded.'
        }
        actions={
          <>
            <Badge tone={ws.trusted ? 'positive' : 'caution'}>{ws.trusted ? 'Trusted' : 'Untrusted'}</Badge>
            <Badge>Generation {ws.generation}</Badge>
          </>
        }
      />
      {created ? (
        <Callout tone="success" title="Workspace created" live>
          <p>
            It is untrusted until you mark it trusted below.
            {can.createServiceTokens ? ' Agents reach it with an agent token bound to it.' : ''}
          </p>
        </Callout>
      ) : null}

      <WorkspaceLinks
        ws={ws}
        canReadApprovals={can.readApprovals}
        pendingHere={pendingHere}
        pendingMore={pendingMore}
        showActivity={events !== undefined}
      />

      <WorkspaceDetails ws={ws} />

      {can.manageWorkspaces ? <WorkspaceSettings ws={ws} /> : null}

      <Panel
        id="workspace-maintainers"
        title="Maintainers"
        description="Maintainers write the workspace’s project-level server definitions."
      >
        {!maintainers.ok ? (
          <ProblemCallout problem={maintainers.problem} context="Maintainers could not be loaded" />
        ) : maintainers.data.items.length === 0 ? (
          <EmptyState title="No maintainers">
            {can.manageWorkspaces
              ? 'Name the members who review this repository’s own server definitions: pick one below.'
              : 'An owner or admin names the maintainers of a workspace.'}
          </EmptyState>
        ) : (
          <MaintainerList
            workspaceId={ws.id}
            maintainers={maintainers.data.items}
            canManage={can.manageWorkspaces}
          />
        )}
        {can.manageWorkspaces && members?.ok ? (
          <AddMaintainerForm workspaceId={ws.id} candidates={candidates} />
        ) : null}
      </Panel>

      {events ? <WorkspaceActivityPanel ws={ws} events={events} directory={directory} /> : null}
      <GatewayPanel gatewayUrl={gatewayUrlOf()} workspace={ws} activity={gatewayActivity} />
    </div>
  );
}
