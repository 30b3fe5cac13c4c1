import type { Metadata } from 'next';
import Link from 'next/link';
import { listWorkspaces } from '@/server/api-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure, PageProblem } from '@/ui/access-states';
import { ButtonLink } from '@/ui/button';
import { DataTable } from '@/ui/data-table';
import { Badge, EmptyState } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';

export const metadata: Metadata = { title: 'Servers' };

// The Servers section starts from a workspace: what runs there is resolved per workspace (and per person).

// Next.js requires a page as the module's default export.
export default async function ServersPage() {
  const access = await pageAccess('readWorkspaces');
  if (!access.ok) return <AccessFailure access={access} />;
  const workspaces = await listWorkspaces({ limit: 100 });
  if (!workspaces.ok) {
    redirectIfSessionEnded(workspaces.problem);
    return <PageProblem problem={workspaces.problem} title="Servers could not be loaded" />;
  }
  const items = workspaces.data.items;
  return (
    <div className="stack">
      <PageHeader
        title="Servers"
        description="MCP server definitions from every tier (managed, local, project, user, plugin), resolved for each workspace. Pick a workspace."
      />
      {items.length === 0 ? (
        <EmptyState
          title="No workspaces yet"
          action={
            access.can.manageWorkspaces ? (
              <ButtonLink href="/workspaces/new" variant="primary">
                New workspace
              </ButtonLink>
            ) : undefined
          }
        >
          {access.can.manageWorkspaces
            ? 'Servers are resolved per workspace: create one first.'
            : 'Servers are resolved per workspace; ask an owner or admin to create one.'}
        </EmptyState>
      ) : (
        <DataTable
          caption="Workspaces and their servers"
          filterLabel="Filter workspaces"
          columns={[
            { id: 'name', label: 'Workspace', sortable: true },
            { id: 'trust', label: 'Trust', sortable: true },
            { id: 'repository', label: 'Repository' },
          ]}
          rows={items.map((workspace) => ({
            id: workspace.id,
            cells: [
              <Link key="name" href={`/servers/${workspace.id}`}>
                {workspace.name}
              </Link>,
              <Badge key="trust" tone={workspace.trusted ? 'positive' : 'caution'}>
                {workspace.trusted ? 'Trusted' : 'Untrusted'}
              </Badge>,
              workspace.repositoryIdentity ? (
                <code key="repo">{workspace.repositoryIdentity}</code>
              ) : (
                <span key="repo" className="muted">
                  None
                </span>
              ),
            ],
            sort: [workspace.name, workspace.trusted ? 'trusted' : 'untrusted', null],
            search: `${workspace.name} ${workspace.repositoryIdentity ?? ''}`,
          }))}
        />
      )}
    </div>
  );
}
