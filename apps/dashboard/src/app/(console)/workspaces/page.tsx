import type { Metadata } from 'next';
import Link from 'next/link';
import { listWorkspaces } from '@/server/api-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import { ButtonLink } from '@/ui/button';
import { DataTable, type TableColumn } from '@/ui/data-table';
import { DateTime } from '@/ui/date-time';
import { Badge, EmptyState, ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { Pager } from '@/ui/pager';
import { readPageCursor, readPageSize, type SearchParams } from '@/ui/paging';

export const metadata: Metadata = { title: 'Workspaces' };

const COLUMNS: readonly TableColumn[] = [
  { id: 'name', label: 'Name', sortable: true },
  { id: 'repository', label: 'Repository', sortable: true },
  { id: 'trust', label: 'Trust', sortable: true },
  { id: 'generation', label: 'Generation', sortable: true, numeric: true },
  { id: 'updated', label: 'Updated', sortable: true },
];

// Next.js requires a page as the module's default export.
export default async function WorkspacesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await pageAccess('readWorkspaces');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can } = access;
  const params = await searchParams;
  const current = readPageCursor(params);
  const pageSize = readPageSize(params);
  const result = await listWorkspaces({ cursor: current.cursor, limit: pageSize });
  if (!result.ok) redirectIfSessionEnded(result.problem);

  const createButton = can.manageWorkspaces ? (
    <ButtonLink href="/workspaces/new" variant="primary">
      New workspace
    </ButtonLink>
  ) : null;

  return (
    <div className="stack">
      <PageHeader
        title="Workspaces"
        description="A workspace stands for one repository or project. Server approvals are bound to its identity and generation; only trusted workspaces accept project-level server definitions."
        actions={createButton}
      />
      {!result.ok ? (
        <ProblemCallout problem={result.problem} context="Workspaces could not be loaded" />
      ) : result.data.items.length === 0 && current.cursor === undefined ? (
        <EmptyState title="No workspaces yet" action={createButton}>
          {can.manageWorkspaces
            ? 'Create a workspace for each repository whose agents should use MCP servers. It starts untrusted; mark it trusted once you have checked its repository.'
            : 'An owner or admin of this tenant creates workspaces. Ask one to add the repository you work on.'}
        </EmptyState>
      ) : (
        <DataTable
          caption="Workspaces"
          columns={COLUMNS}
          initialSort={{ column: 'name', direction: 'ascending' }}
          rows={result.data.items.map((workspace) => ({
            id: workspace.id,
            cells: [
              <Link key="n" href={`/workspaces/${workspace.id}`}>
                {workspace.name}
              </Link>,
              workspace.repositoryIdentity ? (
                <code key="r">{workspace.repositoryIdentity}</code>
              ) : (
                <span key="r" className="muted">
                  None
                </span>
              ),
              <Badge key="t" tone={workspace.trusted ? 'positive' : 'caution'}>
                {workspace.trusted ? 'Trusted' : 'Untrusted'}
              </Badge>,
              workspace.generation,
              <DateTime key="u" value={workspace.updatedAt} />,
            ],
            sort: [
              workspace.name,
              workspace.repositoryIdentity,
              workspace.trusted ? 'trusted' : 'untrusted',
              workspace.generation,
              workspace.updatedAt,
            ],
            search: `${workspace.name} ${workspace.repositoryIdentity ?? ''} ${workspace.trusted ? 'trusted' : 'untrusted'}`,
          }))}
          footer={
            <Pager
              path="/workspaces"
              current={current}
              pageSize={pageSize}
              nextCursor={result.data.nextCursor}
              label="Workspace pages"
            />
          }
        />
      )}
    </div>
  );
}
