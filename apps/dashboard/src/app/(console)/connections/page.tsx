import type { Metadata } from 'next';
import { isProblemCode } from '@gatehouse/contracts';
import { listWorkspaces } from '@/server/api-queries';
import type { ApiProblem } from '@/server/api-problem';
import { listOAuthCredentials, listServiceCredentials } from '@/server/catalog-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { getEffectiveDefinitions } from '@/server/definition-queries';
import { serverSignIn } from '@/server/sign-in-state';
import { AccessFailure } from '@/ui/access-states';
import { CompleteSignInForm } from '@/ui/connections/connection-forms';
import { ConnectionNotices } from '@/ui/connections/connection-notices';
import { OwnCredentialsTable } from '@/ui/connections/own-credentials-table';
import { EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { firstParam, type SearchParams } from '@/ui/paging';
import { ConnectionsWorkspaceTabs } from '@/ui/connections/connections-workspace-tabs';
import { WorkspaceConnections } from '@/ui/connections/workspace-connections';

export const metadata: Metadata = { title: 'Connections' };

// The OAuth sign-ins of the person (docs/architecture/oauth.md): per server of a workspace that declares
// OAuth, the state word (signed in, signed out, needs sign-in, refused), the issuer, when the access token
// expires, and whose credential serves it (their own first, then the workspace's service credential); sign in
// and out. A server only that credential serves reads "Signed in (workspace credential)" for everyone
// (decision 0102); owners and admins also list the workspace's service credentials and sign the workspace out
// of one (decision 0098). Below, every sign-in the person holds in the tenant, and the form that finishes a
// sign-in from the address it came back to.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The outcome the OAuth callback (or the dashboard's finish route) sent the browser back with: an id or a code. */
function signInErrorOf(code: string | undefined): ApiProblem | null {
  if (code === undefined) return null;
  return {
    code: isProblemCode(code) ? code : 'dashboard_error',
    title: 'The sign-in was not finished',
    status: null,
    detail: null,
    errors: [],
    tenants: [],
  };
}

// Next.js requires a page as the module's default export.
export default async function ConnectionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await pageAccess('readWorkspaces');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can } = access;
  const workspaces = await listWorkspaces({ limit: 200 });
  if (!workspaces.ok) redirectIfSessionEnded(workspaces.problem);
  const params = await searchParams;
  const asked = firstParam(params, 'workspace');
  const signedInId = firstParam(params, 'signedIn');
  const signInError = signInErrorOf(firstParam(params, 'signInError'));
  const signedOut = firstParam(params, 'signedOut');
  const sharedId = firstParam(params, 'shared');
  const items = workspaces.ok ? workspaces.data.items : [];
  const workspace = items.find((candidate) => candidate.id === asked) ?? items[0];
  const known = workspace && (asked === undefined || UUID.test(asked)) ? workspace : undefined;
  // The person's sign-ins, and for the workspace shown its service credentials too, which every member may see
  // serving a server (decision 0102). Managing them (the panel with the sign-out) is for owners and admins.
  const [effective, credentials, services] = await Promise.all([
    known ? getEffectiveDefinitions(known.id, 'principal') : undefined,
    can.signInToServers ? listOAuthCredentials(known ? { workspaceId: known.id } : {}) : undefined,
    known && can.manageWorkspaces ? listServiceCredentials(known.id) : undefined,
  ]);
  if (credentials && !credentials.ok) redirectIfSessionEnded(credentials.problem);
  if (services && !services.ok) redirectIfSessionEnded(services.problem);
  const listed = credentials?.ok ? credentials.data.items : [];
  const credentialItems = listed.filter((credential) => credential.subject === 'user');
  const oauthServers =
    effective?.ok && workspace
      ? effective.data.entries.flatMap((entry) => {
          const signIn = serverSignIn(entry, workspace.id, listed);
          return signIn === null ? [] : [{ entry, signIn }];
        })
      : [];
  const workspaceNames = new Map(items.map((item) => [item.id, item.name]));
  const justSignedIn = credentialItems.find((credential) => credential.id === signedInId);
  // oauth.credentials.list lists the person's own credentials: the shared one is named by id only.
  const justShared = sharedId !== undefined && UUID.test(sharedId);

  return (
    <div className="stack">
      <PageHeader
        title="Connections"
        description="Your sign-ins to servers that use OAuth. Tokens are stored encrypted and never shown: you see a state word, the issuer and when the access token expires."
      />
      <ConnectionNotices
        justSignedIn={justSignedIn}
        signInError={signInError}
        justShared={justShared}
        signedOut={signedOut}
      />
      {!workspaces.ok ? (
        <ProblemCallout problem={workspaces.problem} context="The workspaces could not be loaded" />
      ) : workspace === undefined ? (
        <EmptyState title="No workspaces yet">Servers belong to workspaces; create one first.</EmptyState>
      ) : (
        <>
          <ConnectionsWorkspaceTabs workspaces={items} current={workspace.id} />
          <WorkspaceConnections
            workspace={workspace}
            serversProblem={effective && !effective.ok ? effective.problem : null}
            oauthServers={oauthServers}
            services={services}
            can={can}
          />
        </>
      )}

      {can.signInToServers ? (
        <Panel
          id="connections-finish"
          title="Finish a sign-in"
          description="If your browser stopped at Gatehouse’s callback address instead of coming back here, paste that address."
        >
          <CompleteSignInForm />
        </Panel>
      ) : null}

      {credentials ? (
        <Panel
          id="connections-credentials"
          title="Your sign-ins"
          description="Every credential you hold yourself in this tenant."
        >
          {!credentials.ok ? (
            <ProblemCallout problem={credentials.problem} context="The sign-ins could not be loaded" />
          ) : credentialItems.length === 0 ? (
            <EmptyState title="No sign-ins yet">
              Sign in to a server above; its credential is listed here.
            </EmptyState>
          ) : (
            <OwnCredentialsTable credentialItems={credentialItems} workspaceNames={workspaceNames} />
          )}
        </Panel>
      ) : null}
    </div>
  );
}
