import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { redirectIfSessionEnded } from '@/server/current-session';
import { getServerStatus, getWorkspaceCatalog, listOAuthCredentials } from '@/server/catalog-queries';
import { getEffectiveDefinitions } from '@/server/definition-queries';
import { CatalogMarks } from '@/ui/catalog/server-catalog';
import { ServerCatalogPanel } from '@/ui/catalog/server-catalog-panel';
import { ServerConnectionsPanel } from '@/ui/catalog/server-connections-panel';
import { serversPageContext } from '@/server/servers-page-context';
import { ServersContextFailure } from '@/ui/servers/servers-context-failure';
import { PageProblem } from '@/ui/access-states';
import { ActivationBadge } from '@/ui/approvals/activation-parts';
import { ServerApprovalPanel } from '@/ui/approvals/server-approval-panel';
import { PageHeader } from '@/ui/page-header';
import { sourceNames } from '@/ui/approvals/review-model';
import { serverSignIn } from '@/server/sign-in-state';
import { StatusBadge } from '@/ui/servers/server-parts';
import { ServerDefinitionPanel } from '@/ui/servers/server-definition-panel';
import { ServerIdentityPanel } from '@/ui/servers/server-identity-panel';
import { ServerNotices } from '@/ui/servers/server-notices';
import { ServerOverlayPanel } from '@/ui/servers/server-overlay-panel';
import { ServerSignInPanel } from '@/ui/servers/server-sign-in-panel';
import { firstParam, readPageCursor, readPageSize, type SearchParams } from '@/ui/paging';
import type { EffectiveViewKind } from '@/views/definition-views';

export const metadata: Metadata = { title: 'Server' };

// One server of the effective view: its approval state (with the way to its review), its redacted projection
// (command line, args, cwd or URL; env and header KEYS only), fingerprint, security identity, what it shadows,
// its problems, its connections (the last probe and the live lease holders) and the disable overlay.

// Next.js requires a page as the module's default export.
export default async function ServerDetailPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string; serverName: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { workspaceId, serverName: encoded } = await params;
  const serverName = decodeURIComponent(encoded);
  const context = await serversPageContext(workspaceId);
  if (context.kind !== 'ready')
    return <ServersContextFailure context={context} title="This server could not be loaded" />;
  const { workspace, permissions, can } = context;
  const query = await searchParams;
  const view: EffectiveViewKind = firstParam(query, 'view') === 'principal' ? 'principal' : 'workspace';
  // The lease holders are the page's one paged list: `cursor`, `trail` and `limit` are theirs.
  const holdersPage = readPageCursor(query);
  const holdersPageSize = readPageSize(query);
  const [effective, catalog, credentials, status] = await Promise.all([
    getEffectiveDefinitions(workspace.id, view),
    can.readCatalog ? getWorkspaceCatalog(workspace.id) : undefined,
    // The person's own sign-ins and the workspace's service credentials, which serve servers too (decision 0102).
    can.signInToServers ? listOAuthCredentials({ workspaceId: workspace.id }) : undefined,
    can.readCatalog
      ? getServerStatus(workspace.id, serverName, { cursor: holdersPage.cursor, limit: holdersPageSize })
      : undefined,
  ]);
  if (catalog && !catalog.ok) redirectIfSessionEnded(catalog.problem);
  if (status && !status.ok) redirectIfSessionEnded(status.problem);
  if (!effective.ok) {
    redirectIfSessionEnded(effective.problem);
    return <PageProblem problem={effective.problem} title="This server could not be loaded" />;
  }
  const entry = effective.data.entries.find((candidate) => candidate.name === serverName);
  if (entry === undefined) notFound();
  const catalogServer = catalog?.ok
    ? catalog.data.servers.find((candidate) => candidate.name === serverName)
    : undefined;
  const serverCatalog = catalog?.ok
    ? catalog.data.document.servers.find((candidate) => candidate.identity.server === serverName)
    : undefined;
  const signIn = serverSignIn(entry, workspace.id, credentials?.ok ? credentials.data.items : []);
  const back = `/servers/${workspace.id}${view === 'principal' ? '?view=principal' : ''}`;

  return (
    <div className="stack">
      <PageHeader
        breadcrumb={
          <>
            <Link href="/servers">Servers</Link> / <Link href={back}>{workspace.name}</Link>
          </>
        }
        title={entry.name}
        description={view === 'workspace' ? 'In the workspace view.' : 'As you get it.'}
        actions={
          <>
            <StatusBadge entry={entry} />
            <ActivationBadge activation={entry.activation} />
            {catalogServer ? <CatalogMarks server={catalogServer} /> : null}
          </>
        }
      />
      <ServerNotices entry={entry} />

      <ServerApprovalPanel
        entry={entry}
        target={{
          workspaceId: workspace.id,
          view,
          canReadApprovals: can.readApprovals,
          canRequestReview: can.requestReview,
        }}
      />

      {can.readCatalog ? (
        <ServerCatalogPanel
          entry={entry}
          workspaceId={workspace.id}
          problem={catalog && !catalog.ok ? catalog.problem : undefined}
          catalogServer={catalogServer}
          serverCatalog={serverCatalog}
          canRefresh={can.refreshCatalog}
        />
      ) : null}

      {status ? (
        <ServerConnectionsPanel
          status={status}
          fingerprint={entry.fingerprint ?? null}
          paging={{
            path: `/servers/${workspace.id}/server/${encodeURIComponent(entry.name)}`,
            keep: { view: view === 'principal' ? 'principal' : undefined },
            current: holdersPage,
            pageSize: holdersPageSize,
          }}
        />
      ) : null}

      {signIn !== null ? <ServerSignInPanel signIn={signIn} workspaceId={workspace.id} /> : null}

      <ServerDefinitionPanel entry={entry} />

      <ServerIdentityPanel entry={entry} names={sourceNames(workspace)} />

      {permissions.variableScopes.length > 0 ? (
        <ServerOverlayPanel
          entry={entry}
          workspaceId={workspace.id}
          workspaceScope={permissions.workspaceOverlays}
        />
      ) : null}
    </div>
  );
}
