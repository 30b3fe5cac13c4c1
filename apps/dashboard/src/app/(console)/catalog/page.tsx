import type { Metadata } from 'next';
import Link from 'next/link';
import { getWorkspaceCatalog } from '@/server/catalog-queries';
import { listWorkspaces } from '@/server/api-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import { CatalogMarks } from '@/ui/catalog/server-catalog';
import { DataTable } from '@/ui/data-table';
import { EmptyState, ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { firstParam, type SearchParams } from '@/ui/paging';

export const metadata: Metadata = { title: 'Catalog' };

// The catalog lease of one workspace as the signed-in person gets it (catalog.get, decision 0074): every server
// approved for them with its marks and how many tools, prompts and resources it brings; each server's page holds
// the whole of it (tools with their axes and narrowing notes). One workspace at a time: one catalog read a load.

function formatTime(iso: string | null): string {
  if (iso === null) return 'Never';
  return `${new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
}

// Next.js requires a page as the module's default export.
export default async function CatalogPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await pageAccess('readCatalog');
  if (!access.ok) return <AccessFailure access={access} />;
  const workspaces = await listWorkspaces({ limit: 200 });
  if (!workspaces.ok) {
    redirectIfSessionEnded(workspaces.problem);
    return <ProblemCallout problem={workspaces.problem} context="The workspaces could not be loaded" />;
  }
  const listed = workspaces.data.items;
  const asked = firstParam(await searchParams, 'workspace');
  const selected = listed.find((workspace) => workspace.id === asked) ?? listed[0];
  const header = (
    <PageHeader
      title="Catalog"
      description="The admitted tools, prompts and resources of a workspace, as you get them through the gateway."
    />
  );
  if (selected === undefined)
    return (
      <div className="stack">
        {header}
        <EmptyState title="No workspace yet">
          A workspace's catalog shows here once it has approved servers.
        </EmptyState>
      </div>
    );
  const catalog = await getWorkspaceCatalog(selected.id);
  if (!catalog.ok) redirectIfSessionEnded(catalog.problem);
  const documents = catalog.ok
    ? new Map(catalog.data.document.servers.map((server) => [server.identity.server, server]))
    : new Map();
  return (
    <div className="stack">
      {header}
      <nav aria-label="Workspaces">
        <ul className="row">
          {listed.map((workspace) => (
            <li key={workspace.id}>
              <Link
                href={`/catalog?workspace=${workspace.id}`}
                aria-current={workspace.id === selected.id ? 'page' : undefined}
              >
                {workspace.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {!catalog.ok ? (
        <ProblemCallout problem={catalog.problem} context="This workspace's catalog could not be loaded" />
      ) : catalog.data.servers.length === 0 ? (
        <EmptyState title="No approved server">
          Approve a server of {selected.name} and a worker discovers its tools.
        </EmptyState>
      ) : (
        <DataTable
          caption={`Servers approved in ${selected.name}`}
          filterLabel="Filter servers"
          initialSort={{ column: 'server', direction: 'ascending' }}
          columns={[
            { id: 'server', label: 'Server', sortable: true },
            { id: 'state', label: 'State' },
            { id: 'tools', label: 'Tools', numeric: true, sortable: true },
            { id: 'prompts', label: 'Prompts', numeric: true, sortable: true },
            { id: 'resources', label: 'Resources', numeric: true, sortable: true },
            { id: 'fetched', label: 'Last refresh', sortable: true },
          ]}
          rows={catalog.data.servers.map((server) => {
            const document = documents.get(server.name);
            const tools = document?.tools.length ?? null;
            const prompts = document?.prompts.length ?? null;
            const resources = document ? document.resources.length + document.resourceTemplates.length : null;
            return {
              id: server.name,
              cells: [
                <Link
                  key="name"
                  href={`/servers/${selected.id}/server/${encodeURIComponent(server.name)}?view=principal#server-catalog`}
                >
                  {server.name}
                </Link>,
                <CatalogMarks key="state" server={server} />,
                <span key="tools">{tools ?? '—'}</span>,
                <span key="prompts">{prompts ?? '—'}</span>,
                <span key="resources">{resources ?? '—'}</span>,
                <span key="fetched">{formatTime(server.fetchedAt)}</span>,
              ],
              sort: [server.name, null, tools, prompts, resources, server.fetchedAt],
              search: server.name,
            };
          })}
        />
      )}
    </div>
  );
}
