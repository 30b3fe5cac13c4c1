import type { Metadata } from 'next';
import Link from 'next/link';
import { redirectIfSessionEnded } from '@/server/current-session';
import { getWorkspaceCatalog, listOAuthCredentials } from '@/server/catalog-queries';
import { getEffectiveDefinitions } from '@/server/definition-queries';
import { serversPageContext } from '@/server/servers-page-context';
import { ServersContextFailure } from '@/ui/servers/servers-context-failure';
import { ButtonLink } from '@/ui/button';
import { Badge, Callout, EmptyState, ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { firstParam, type SearchParams } from '@/ui/paging';
import { describeProblem, problemPath } from '@/ui/servers/definition-labels';
import { EffectiveServersTable } from '@/ui/servers/effective-servers-table';
import { ServersTabs } from '@/ui/servers/servers-tabs';
import styles from '@/ui/servers/servers.module.css';
import type { EffectiveViewKind } from '@/views/definition-views';

export const metadata: Metadata = { title: 'Servers' };

// The effective view of one workspace at a glance: each server name with its status, its approval state (and
// the way to its review), the source that won, what it shadows (on expand) and a banner for source problems. Two views: the workspace alone (managed,
// project, plugin) and "as me" (every tier, my variables and overlays).

// Next.js requires a page as the module's default export.
export default async function WorkspaceServersPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { workspaceId } = await params;
  const context = await serversPageContext(workspaceId);
  if (context.kind !== 'ready')
    return <ServersContextFailure context={context} title="Servers could not be loaded" />;
  const { workspace, permissions, can } = context;
  const view: EffectiveViewKind =
    firstParam(await searchParams, 'view') === 'principal' ? 'principal' : 'workspace';
  const [effective, catalog, credentials] = await Promise.all([
    getEffectiveDefinitions(workspace.id, view),
    can.readCatalog ? getWorkspaceCatalog(workspace.id) : undefined,
    // The person's own sign-ins and the workspace's service credentials, which serve servers too (decision 0102).
    can.signInToServers ? listOAuthCredentials({ workspaceId: workspace.id }) : undefined,
  ]);
  if (!effective.ok) redirectIfSessionEnded(effective.problem);
  const catalogServers = new Map(
    (catalog?.ok ? catalog.data.servers : []).map((server) => [server.name, server]),
  );
  const credentialItems = credentials?.ok ? credentials.data.items : [];
  const base = `/servers/${workspace.id}`;

  return (
    <div className="stack">
      <PageHeader
        breadcrumb={<Link href="/servers">Servers</Link>}
        title={`Servers of ${workspace.name}`}
        description="Each name resolves to one whole entry: managed outranks local, project, user and plugin."
        actions={
          permissions.tiers.length > 0 ? (
            <ButtonLink href={`${base}/sources`} variant="primary">
              Edit sources
            </ButtonLink>
          ) : undefined
        }
      />
      <ServersTabs workspaceId={workspace.id} current="effective" />
      <nav aria-label="View">
        <ul className={styles.tabs}>
          {(
            [
              ['workspace', 'Workspace view', base],
              ['principal', 'As me', `${base}?view=principal`],
            ] as const
          ).map(([kind, label, href]) => (
            <li key={kind}>
              <Link className={styles.tab} href={href} aria-current={view === kind ? 'true' : undefined}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="muted">
        {view === 'workspace'
          ? 'The workspace alone: managed, project and plugin sources with tenant and workspace variables and the workspace’s overlays.'
          : 'As you get it: every tier, including your user and local sources, your variables and your own overlays.'}
      </p>

      {!effective.ok ? (
        <ProblemCallout problem={effective.problem} context="The effective servers could not be loaded" />
      ) : (
        <>
          {effective.data.problems.length > 0 ? (
            <Callout tone="warning" title="Some sources have problems">
              <ul>
                {effective.data.problems.map((problem, index) => (
                  <li key={index}>
                    {problemPath(problem) ? <code>{problemPath(problem)}</code> : null}{' '}
                    {describeProblem(problem)}
                    {problem['severity'] === 'blocking' ? ' (blocking)' : ''}
                  </li>
                ))}
              </ul>
            </Callout>
          ) : null}
          {effective.data.entries.length === 0 ? (
            <EmptyState
              title="No servers yet"
              action={
                permissions.tiers.length > 0 ? (
                  <ButtonLink href={`${base}/sources`} variant="primary">
                    Write a source
                  </ButtonLink>
                ) : undefined
              }
            >
              {permissions.tiers.length > 0
                ? 'Write a source (paste an .mcp.json document) to define the servers of this workspace.'
                : 'An admin or a maintainer of this workspace writes its sources.'}
            </EmptyState>
          ) : (
            <EffectiveServersTable
              workspace={workspace}
              entries={effective.data.entries}
              view={view}
              catalogServers={catalogServers}
              credentialItems={credentialItems}
              canReadApprovals={can.readApprovals}
              canRequestReview={can.requestReview}
            />
          )}
          {effective.data.overlayProblems.length > 0 ? (
            <Callout tone="info" title="Overlays naming no listed server">
              <ul>
                {effective.data.overlayProblems.map((problem, index) => (
                  <li key={index}>{describeProblem(problem)}</li>
                ))}
              </ul>
            </Callout>
          ) : null}
          <p className="muted">
            <Badge>{view === 'workspace' ? 'Workspace view' : 'As me'}</Badge> {effective.data.entries.length}{' '}
            {effective.data.entries.length === 1 ? 'server' : 'servers'}.
          </p>
        </>
      )}
    </div>
  );
}
