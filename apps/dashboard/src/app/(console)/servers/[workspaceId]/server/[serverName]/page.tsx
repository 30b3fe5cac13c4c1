import type { Metadata } from 'next';
import { originInWords, sourceNames } from '@/ui/approvals/review-model';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { redirectIfSessionEnded } from '@/server/current-session';
import { getServerStatus, getWorkspaceCatalog, listOAuthCredentials } from '@/server/catalog-queries';
import { getEffectiveDefinitions } from '@/server/definition-queries';
import { SIGN_IN_WORDS, serverSignIn } from '@/server/sign-in-state';
import { RefreshCatalogForm } from '@/ui/catalog/refresh-catalog-form';
import { CatalogMarks, ServerCatalog } from '@/ui/catalog/server-catalog';
import { ServerConnections } from '@/ui/catalog/server-connections';
import { serversPageContext } from '@/server/servers-page-context';
import { ServersContextFailure } from '@/ui/servers/servers-context-failure';
import { PageProblem } from '@/ui/access-states';
import { ActivationBadge, ActivationDetails } from '@/ui/approvals/activation-parts';
import { Callout, Panel, ProblemCallout } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';
import { PageHeader } from '@/ui/page-header';
import { firstParam, readPageCursor, readPageSize, type SearchParams } from '@/ui/paging';
import { describeProblem, problemPath } from '@/ui/servers/definition-labels';
import { ServerOverlayControl } from '@/ui/servers/overlay-forms';
import { EntryReason, KeysList, ShadowedEntries, SourceLabel, StatusBadge } from '@/ui/servers/server-parts';
import serverStyles from '@/ui/servers/servers.module.css';
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
  const transport = entry.projection?.transport;
  const disabledBy =
    entry.reason === 'disabled_by_workspace'
      ? 'workspace'
      : entry.reason === 'disabled_by_user'
        ? 'user'
        : null;
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
      {entry.status === 'disabled' ? (
        <Callout tone="info" title="Disabled">
          <p>
            <EntryReason entry={entry} />
          </p>
        </Callout>
      ) : null}
      {entry.problems.filter((problem) => problem['reason'] !== 'disabled_entry').length > 0 ? (
        <Callout tone="warning" title="Problems">
          <ul>
            {entry.problems
              .filter((problem) => problem['reason'] !== 'disabled_entry')
              .map((problem, index) => (
                <li key={index}>
                  {problemPath(problem) ? <code>{problemPath(problem)}</code> : null}{' '}
                  {describeProblem(problem)}
                </li>
              ))}
          </ul>
        </Callout>
      ) : null}

      <Panel
        id="server-approval"
        title="Approval"
        description="It runs only while an approval holds for exactly this definition, source, repository and generation."
      >
        <ActivationDetails
          entry={entry}
          target={{
            workspaceId: workspace.id,
            view,
            canReadApprovals: can.readApprovals,
            canRequestReview: can.requestReview,
          }}
        />
      </Panel>

      {can.readCatalog ? (
        <Panel
          id="server-catalog"
          title="Catalog"
          description="What agents get from this server, as you get it: discovered by a worker for this exact definition."
          actions={
            catalogServer && can.refreshCatalog ? (
              <RefreshCatalogForm
                workspaceId={workspace.id}
                serverName={entry.name}
                perUser={entry.perUser === true}
              />
            ) : undefined
          }
        >
          {catalog && !catalog.ok ? (
            <ProblemCallout problem={catalog.problem} context="The catalog could not be loaded" />
          ) : catalogServer === undefined ? (
            <p className="muted">
              Not in your catalog: only servers approved for you now are discovered and served to agents.
            </p>
          ) : (
            <ServerCatalog server={catalogServer} catalog={serverCatalog} />
          )}
        </Panel>
      ) : null}

      {status ? (
        <Panel
          id="server-connections"
          title="Connections"
          description="What workers found when they last probed it, and who holds a live lease on it now."
        >
          {status.ok ? (
            <ServerConnections
              status={status.data}
              fingerprint={entry.fingerprint ?? null}
              paging={{
                path: `/servers/${workspace.id}/server/${encodeURIComponent(entry.name)}`,
                keep: { view: view === 'principal' ? 'principal' : undefined },
                current: holdersPage,
                pageSize: holdersPageSize,
              }}
            />
          ) : (
            <ProblemCallout problem={status.problem} context="The connection state could not be loaded" />
          )}
        </Panel>
      ) : null}

      {signIn !== null ? (
        <Panel
          id="server-sign-in"
          title="Sign-in"
          description="This server uses OAuth: it runs with your own sign-in, or the workspace’s service credential."
          actions={<Link href={`/connections?workspace=${workspace.id}`}>Open Connections</Link>}
        >
          <p>
            <strong>{SIGN_IN_WORDS[signIn.state]}</strong>
            {signIn.state === 'signed_in'
              ? signIn.own?.state === 'signed_in'
                ? ' with your own sign-in.'
                : ' with the workspace’s service credential.'
              : '. Sign in on the Connections page before agents can use it.'}
          </p>
        </Panel>
      ) : null}

      <Panel
        id="server-definition"
        title="Definition"
        description="As projected: secrets masked, env and header values never shown."
      >
        {transport === undefined ? (
          <p className="muted">No projection: the entry could not be read. See its problems above.</p>
        ) : (
          <dl className={styles.definition}>
            <dt>Transport</dt>
            <dd>{transport.kind}</dd>
            {transport.kind === 'stdio' ? (
              <>
                <dt>Command</dt>
                <dd>
                  <code>{transport.command}</code>
                </dd>
                <dt>Arguments</dt>
                <dd>
                  {transport.args.length === 0 ? (
                    <span className="muted">None</span>
                  ) : (
                    <ol className={serverStyles.keys} aria-label="Arguments">
                      {transport.args.map((arg, index) => (
                        <li key={index}>
                          <code className={serverStyles.codeBlock}>{arg}</code>
                        </li>
                      ))}
                    </ol>
                  )}
                </dd>
                <dt>Command line</dt>
                <dd>
                  <pre className={serverStyles.codeBlock}>{transport.commandLine}</pre>
                </dd>
                <dt>Working directory</dt>
                <dd>
                  {transport.cwd ? <code>{transport.cwd}</code> : <span className="muted">Not set</span>}
                </dd>
                <dt>Environment</dt>
                <dd>
                  <KeysList keys={transport.env} label="Environment variable keys" />
                </dd>
              </>
            ) : (
              <>
                <dt>URL</dt>
                <dd>
                  <code>{transport.url}</code>
                </dd>
                <dt>Headers</dt>
                <dd>
                  <KeysList keys={transport.headers} label="Header keys" />
                </dd>
              </>
            )}
            <dt>Trusted workspace</dt>
            <dd>{entry.projection?.requiresTrustedWorkspace ? 'Required' : 'Not required'}</dd>
          </dl>
        )}
      </Panel>

      <Panel
        id="server-identity"
        title="Identity"
        description="What approvals and stored sign-ins are bound to."
      >
        <dl className={styles.definition}>
          <dt>Winning source</dt>
          <dd>
            <SourceLabel source={entry.source} name={originInWords(entry.source, sourceNames(workspace))} />
          </dd>
          <dt>Shadowed</dt>
          <dd>
            <ShadowedEntries entry={entry} />
          </dd>
          <dt>Fingerprint</dt>
          <dd>
            {entry.fingerprint ? (
              <code>{entry.fingerprint}</code>
            ) : (
              <span className="muted">None (not resolved)</span>
            )}
          </dd>
          <dt>Security identity</dt>
          <dd>
            {entry.identity ? (
              <span className="cell-stack">
                <code>{entry.identity.display}</code>
                <code className="muted">{entry.identity.key}</code>
              </span>
            ) : (
              <span className="muted">None (not resolved)</span>
            )}
          </dd>
          <dt>Approved per user</dt>
          <dd>{entry.perUser === null ? '—' : entry.perUser ? 'Yes' : 'No'}</dd>
        </dl>
      </Panel>

      {permissions.variableScopes.length > 0 ? (
        <Panel
          id="server-overlay"
          title="Disable"
          description="A disabled server stays listed with its reason; enabling it gives back the identical entry."
        >
          <ServerOverlayControl
            workspaceId={workspace.id}
            serverName={entry.name}
            workspaceScope={permissions.workspaceOverlays}
            disabledBy={disabledBy}
          />
        </Panel>
      ) : null}
    </div>
  );
}
