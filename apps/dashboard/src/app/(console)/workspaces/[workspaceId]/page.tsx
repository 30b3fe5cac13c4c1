import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { directoryFromMembers } from '@/server/actor-directory';
import { getWorkspace, listMaintainers, listMembers } from '@/server/api-queries';
import { listApprovalRequests } from '@/server/approval-queries';
import { workspaceActivity } from '@/server/workspace-activity';
import {
  bumpWorkspaceGenerationAction,
  removeMaintainerAction,
  setWorkspaceTrustAction,
} from '@/server/actions/workspace.actions';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { dashboardConfig } from '@/server/dashboard-env';
import { getGatewayActivity } from '@/server/gateway-queries';
import { GatewayPanel } from '@/ui/gateway/gateway-panel';
import { AccessFailure, PageProblem } from '@/ui/access-states';
import { AuditTable } from '@/ui/audit/audit-table';
import { ButtonLink } from '@/ui/button';
import { ConfirmAction } from '@/ui/confirm-action';
import { DateTime } from '@/ui/date-time';
import { Badge, Callout, EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';
import { PageHeader } from '@/ui/page-header';
import { firstParam, type SearchParams } from '@/ui/paging';
import { AddMaintainerForm } from '@/ui/workspaces/add-maintainer-form';
import { RenameWorkspaceForm } from '@/ui/workspaces/rename-workspace-form';

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

      <nav aria-label="In this workspace" id="workspace-links" className={styles.workspaceLinks}>
        <ul>
          <li>
            <Link href={`/servers/${ws.id}`}>
              <strong>Servers</strong>
              <span className="muted">What runs here, and whether it is approved</span>
            </Link>
          </li>
          <li>
            <Link href={`/servers/${ws.id}/sources`}>
              <strong>Sources</strong>
              <span className="muted">The definitions, per tier</span>
            </Link>
          </li>
          <li>
            <Link href={`/servers/${ws.id}/variables`}>
              <strong>Variables</strong>
              <span className="muted">Values the definitions reference</span>
            </Link>
          </li>
          {can.readApprovals ? (
            <li>
              <Link href={`/approvals?workspaceId=${ws.id}`}>
                <strong>
                  Approvals
                  {pendingHere !== undefined && pendingHere > 0 ? (
                    <Badge tone="accent">{`${pendingHere}${pendingMore ? '+' : ''} open`}</Badge>
                  ) : null}
                </strong>
                <span className="muted">Requests and decisions for this workspace</span>
              </Link>
            </li>
          ) : null}
          {events ? (
            <li>
              <Link href="#workspace-activity">
                <strong>Activity</strong>
                <span className="muted">Recent changes here</span>
              </Link>
            </li>
          ) : null}
        </ul>
      </nav>

      <Panel id="workspace-details" title="Details">
        <dl className={styles.definition}>
          <dt>Id</dt>
          <dd>
            <code>{ws.id}</code>
          </dd>
          <dt>Repository</dt>
          <dd>
            {ws.repositoryIdentity ? (
              <code>{ws.repositoryIdentity}</code>
            ) : (
              <span className="muted">None</span>
            )}
          </dd>
          <dt>Generation</dt>
          <dd>{ws.generation}</dd>
          <dt>Created</dt>
          <dd>
            <DateTime value={ws.createdAt} />
          </dd>
          <dt>Updated</dt>
          <dd>
            <DateTime value={ws.updatedAt} />
          </dd>
        </dl>
      </Panel>

      {can.manageWorkspaces ? (
        <Panel id="workspace-settings" title="Settings" description="Changes are recorded in the audit log.">
          <div className="stack">
            <RenameWorkspaceForm workspaceId={ws.id} name={ws.name} />
            <div className="stack-sm">
              <h3>Trust</h3>
              <p className="muted">
                {ws.trusted
                  ? 'Trusted: server definitions from the repository itself (project, local and plugin sources) are considered, each still needing approval.'
                  : 'Untrusted: only managed definitions apply here; project, local and plugin sources are refused.'}
              </p>
              <div>
                <ConfirmAction
                  trigger={ws.trusted ? 'Mark as untrusted' : 'Mark as trusted'}
                  triggerVariant={ws.trusted ? 'dangerOutline' : 'secondary'}
                  title={ws.trusted ? `Mark ${ws.name} as untrusted?` : `Mark ${ws.name} as trusted?`}
                  description={
                    ws.trusted ? (
                      <>
                        <p>Marking the workspace untrusted:</p>
                        <ul>
                          <li>refuses its project, local and plugin server definitions from now on;</li>
                          <li>ends the leases and connections that depend on them within a second;</li>
                          <li>keeps managed (tenant-wide) definitions working.</li>
                        </ul>
                      </>
                    ) : (
                      <>
                        <p>Marking the workspace trusted:</p>
                        <ul>
                          <li>
                            lets the repository’s own project, local and plugin server definitions be
                            considered;
                          </li>
                          <li>does not approve any of them: each still needs an approver’s decision.</li>
                        </ul>
                        <p>Only do this for a repository whose contents you have checked.</p>
                      </>
                    )
                  }
                  confirmLabel={ws.trusted ? 'Mark as untrusted' : 'Mark as trusted'}
                  confirmVariant={ws.trusted ? 'danger' : 'primary'}
                  action={setWorkspaceTrustAction}
                  fields={{ workspaceId: ws.id, trusted: ws.trusted ? 'false' : 'true' }}
                />
              </div>
            </div>
            <div className="stack-sm">
              <h3>Generation</h3>
              <p className="muted">
                Approvals are bound to a generation. Start a new one when the repository changed hands or its
                server definitions need a fresh review.
              </p>
              <div>
                <ConfirmAction
                  trigger="Start a new generation"
                  triggerVariant="dangerOutline"
                  title={`Start generation ${ws.generation + 1} of ${ws.name}?`}
                  description={
                    <>
                      <p>
                        Every approval bound to generation {ws.generation} becomes stale at once: the servers
                        they admitted stop until an approver approves them again for generation{' '}
                        {ws.generation + 1}.
                      </p>
                      <p>This cannot be undone.</p>
                    </>
                  }
                  confirmLabel={`Start generation ${ws.generation + 1}`}
                  confirmVariant="danger"
                  action={bumpWorkspaceGenerationAction}
                  fields={{ workspaceId: ws.id, expectedGeneration: String(ws.generation) }}
                />
              </div>
            </div>
          </div>
        </Panel>
      ) : null}

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
          <ul className={styles.attention}>
            {maintainers.data.items.map((maintainer) => (
              <li key={maintainer.userId} className={styles.listRow}>
                <span className="cell-stack">
                  <span>{maintainer.displayName}</span>
                  <span className="muted">
                    {maintainer.email} · since <DateTime value={maintainer.since} />
                  </span>
                </span>
                {can.manageWorkspaces ? (
                  <ConfirmAction
                    trigger="Remove"
                    triggerVariant="dangerOutline"
                    title={`Remove ${maintainer.displayName} as a maintainer?`}
                    description={
                      <p>
                        They stay a member of the tenant but no longer write this workspace’s project sources.
                      </p>
                    }
                    confirmLabel="Remove maintainer"
                    confirmVariant="danger"
                    action={removeMaintainerAction}
                    fields={{ workspaceId: ws.id, userId: maintainer.userId }}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {can.manageWorkspaces && members?.ok ? (
          <AddMaintainerForm workspaceId={ws.id} candidates={candidates} />
        ) : null}
      </Panel>

      {events ? (
        <Panel
          id="workspace-activity"
          title="Activity"
          description="Changes to this workspace and to what lives in it (sources, variables, approvals), newest first."
          actions={
            <ButtonLink href="/audit" variant="secondary" size="small">
              Open the audit log
            </ButtonLink>
          }
        >
          {!events.ok ? (
            <ProblemCallout problem={events.problem} context="Activity could not be loaded" />
          ) : events.events.length === 0 ? (
            <EmptyState title={events.complete ? 'No activity yet' : 'No recent activity'}>
              {events.complete
                ? 'Changes to this workspace, its sources, variables and approvals will be listed here.'
                : `None of the tenant’s latest ${events.scanned} audit events concern this workspace: search the audit log for older ones.`}
            </EmptyState>
          ) : (
            <AuditTable
              compact
              events={events.events}
              directory={directory}
              caption={`Audit events of ${ws.name}`}
            />
          )}
        </Panel>
      ) : null}
      <GatewayPanel gatewayUrl={gatewayUrlOf()} workspace={ws} activity={gatewayActivity} />
    </div>
  );
}
