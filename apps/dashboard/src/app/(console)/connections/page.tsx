import type { Metadata } from 'next';
import Link from 'next/link';
import { listWorkspaces } from '@/server/api-queries';
import { listOAuthCredentials, listServiceCredentials } from '@/server/catalog-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { getEffectiveDefinitions } from '@/server/definition-queries';
import type { ApiProblem } from '@/server/api-problem';
import { isProblemCode } from '@gatehouse/contracts';
import { SIGN_IN_WORDS, serverSignIn, signInLabel } from '@/server/sign-in-state';
import { AccessFailure } from '@/ui/access-states';
import {
  CompleteSignInForm,
  ServiceSignOutForm,
  ShareSignInForm,
  SignInForm,
  SignOutForm,
} from '@/ui/connections/connection-forms';
import { DataTable } from '@/ui/data-table';
import { Badge, Callout, EmptyState, Panel, ProblemCallout, type BadgeTone } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { firstParam, type SearchParams } from '@/ui/paging';
import catalogStyles from '@/ui/catalog/catalog.module.css';
import styles from '@/ui/servers/servers.module.css';
import type { SignInWord } from '@/server/sign-in-state';
import type { EffectiveEntryView } from '@/views/definition-views';

export const metadata: Metadata = { title: 'Connections' };

// The OAuth sign-ins of the person (docs/architecture/oauth.md): per server of a workspace that declares
// OAuth, the state word (signed in, signed out, needs sign-in, refused), the issuer, when the access token
// expires, and whose credential serves it (their own first, then the workspace's service credential); sign in
// and out. A server only that credential serves reads "Signed in (workspace credential)" for everyone
// (decision 0102); owners and admins also list the workspace's service credentials and sign the workspace out
// of one (decision 0098). Below, every sign-in the person holds in the tenant, and the form that finishes a
// sign-in from the address it came back to.

const WORD_TONES: Readonly<Record<SignInWord, BadgeTone>> = {
  signed_in: 'positive',
  signed_out: 'neutral',
  needs_sign_in: 'caution',
  refused: 'negative',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function expiry(iso: string | null | undefined) {
  if (!iso) return <span className="muted">Not known</span>;
  const text = new Date(iso).toLocaleString('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return <time dateTime={iso}>{text} UTC</time>;
}

/** The definition lets the workspace's service credential serve it (decision 0082). */
function sharedUse(entry: EffectiveEntryView): boolean {
  const transport = entry.projection?.transport;
  return transport?.kind === 'http' && transport.oauth?.allowSharedCredential === true;
}

function Word({ state, label }: { state: SignInWord; label?: string }) {
  return <Badge tone={WORD_TONES[state]}>{label ?? SIGN_IN_WORDS[state]}</Badge>;
}

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
  const serviceItems = services?.ok ? services.data.items : [];
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
      {justSignedIn ? (
        <Callout tone="success" title="Signed in" live>
          <p>
            Signed in at {justSignedIn.issuer} for {justSignedIn.resource}.
          </p>
        </Callout>
      ) : null}
      {signInError ? <ProblemCallout problem={signInError} /> : null}
      {justShared ? (
        <Callout tone="success" title="Shared with the workspace" live>
          <p>
            Your sign-in is now the workspace’s service credential for that server: it serves everyone without
            a sign-in of their own. It moved, so you are signed out of it yourself.
          </p>
        </Callout>
      ) : null}
      {signedOut === 'revoked' || signedOut === 'deleted' ? (
        <Callout tone="success" title="Signed out" live>
          <p>
            {signedOut === 'revoked'
              ? 'Signed out. The authorization server revoked the tokens too.'
              : 'Signed out. The tokens are deleted here; the authorization server could not be asked to revoke them.'}
          </p>
        </Callout>
      ) : null}
      {!workspaces.ok ? (
        <ProblemCallout problem={workspaces.problem} context="The workspaces could not be loaded" />
      ) : workspace === undefined ? (
        <EmptyState title="No workspaces yet">Servers belong to workspaces; create one first.</EmptyState>
      ) : (
        <>
          <nav aria-label="Workspace">
            <ul className={styles.tabs}>
              {items.map((item) => (
                <li key={item.id}>
                  <Link
                    className={styles.tab}
                    href={`/connections?workspace=${item.id}`}
                    aria-current={item.id === workspace.id ? 'true' : undefined}
                  >
                    {item.name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <Panel
            id="connections-servers"
            title={`Servers of ${workspace.name} that use OAuth`}
            description="As you get them: your own sign-in is used first, then the workspace’s service credential where the definition allows shared use."
          >
            {effective && !effective.ok ? (
              <ProblemCallout problem={effective.problem} context="The servers could not be loaded" />
            ) : oauthServers.length === 0 ? (
              <EmptyState title="No server here uses OAuth">
                Servers whose definition declares OAuth appear here with their sign-in state.
              </EmptyState>
            ) : (
              <DataTable
                caption={`Servers of ${workspace.name} that use OAuth`}
                filterLabel="Filter servers"
                initialSort={{ column: 'server', direction: 'ascending' }}
                columns={[
                  { id: 'server', label: 'Server', sortable: true },
                  { id: 'state', label: 'State', sortable: true },
                  { id: 'subject', label: 'Credential' },
                  { id: 'issuer', label: 'Issuer' },
                  { id: 'expires', label: 'Access token expires' },
                  { id: 'actions', label: 'Actions', hideLabel: true },
                ]}
                rows={oauthServers.map(({ entry, signIn }) => {
                  const serving =
                    signIn.own?.state === 'signed_in'
                      ? signIn.own
                      : signIn.workspace?.state === 'signed_in'
                        ? signIn.workspace
                        : (signIn.own ?? signIn.workspace);
                  return {
                    id: entry.name,
                    cells: [
                      <Link
                        key="server"
                        href={`/servers/${workspace.id}/server/${encodeURIComponent(entry.name)}?view=principal`}
                      >
                        {entry.name}
                      </Link>,
                      <Word key="state" state={signIn.state} label={signInLabel(signIn)} />,
                      <span key="subject">
                        {serving === null
                          ? '—'
                          : serving.subject === 'user'
                            ? 'Yours'
                            : 'Workspace service credential'}
                      </span>,
                      <code key="issuer" className={catalogStyles.name}>
                        {serving?.issuer ?? '—'}
                      </code>,
                      <span key="expires">{expiry(serving?.accessTokenExpiresAt)}</span>,
                      <span key="actions" className="row">
                        {can.signInToServers ? (
                          <SignInForm
                            workspaceId={workspace.id}
                            serverName={entry.name}
                            again={signIn.own?.state === 'signed_in'}
                          />
                        ) : null}
                        {can.manageWorkspaces && signIn.own?.state === 'signed_in' && sharedUse(entry) ? (
                          <ShareSignInForm
                            workspaceId={workspace.id}
                            credentialId={signIn.own.id}
                            serverName={entry.name}
                          />
                        ) : null}
                        {can.signInToServers && signIn.own ? (
                          <SignOutForm
                            credentialId={signIn.own.id}
                            target={entry.name}
                            workspaceId={workspace.id}
                          />
                        ) : null}
                      </span>,
                    ],
                    sort: [entry.name, signIn.state, null, null, null, null],
                    search: `${entry.name} ${signInLabel(signIn)} ${serving?.issuer ?? ''}`,
                  };
                })}
              />
            )}
          </Panel>
          {services ? (
            <Panel
              id="connections-service-credentials"
              title={`Service credentials of ${workspace.name}`}
              description="Sign-ins shared with the workspace: each serves everyone here without a sign-in of their own. Signing the workspace out deletes it, ends the leases that carried it and asks the issuer to revoke it."
            >
              {!services.ok ? (
                <ProblemCallout
                  problem={services.problem}
                  context="The service credentials could not be loaded"
                />
              ) : serviceItems.length === 0 ? (
                <EmptyState title="No service credentials">
                  Share your own sign-in with the workspace above, for a server whose definition allows it.
                </EmptyState>
              ) : (
                <DataTable
                  caption={`Service credentials of ${workspace.name}`}
                  filterLabel="Filter service credentials"
                  initialSort={{ column: 'resource', direction: 'ascending' }}
                  columns={[
                    { id: 'resource', label: 'Server address', sortable: true },
                    { id: 'state', label: 'State', sortable: true },
                    { id: 'issuer', label: 'Issuer' },
                    { id: 'expires', label: 'Access token expires', sortable: true },
                    { id: 'actions', label: 'Actions', hideLabel: true },
                  ]}
                  rows={serviceItems.map((credential) => ({
                    id: credential.id,
                    cells: [
                      <code key="resource" className={catalogStyles.name}>
                        {credential.resource}
                      </code>,
                      <Word key="state" state={credential.state} />,
                      <code key="issuer" className={catalogStyles.name}>
                        {credential.issuer}
                      </code>,
                      <span key="expires">{expiry(credential.accessTokenExpiresAt)}</span>,
                      <ServiceSignOutForm
                        key="actions"
                        workspaceId={workspace.id}
                        credentialId={credential.id}
                        target={credential.resource}
                      />,
                    ],
                    sort: [
                      credential.resource,
                      credential.state,
                      null,
                      credential.accessTokenExpiresAt,
                      null,
                    ],
                    search: `${credential.resource} ${credential.issuer} ${SIGN_IN_WORDS[credential.state]}`,
                  }))}
                />
              )}
            </Panel>
          ) : null}
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
            <DataTable
              caption="Your sign-ins"
              filterLabel="Filter sign-ins"
              initialSort={{ column: 'resource', direction: 'ascending' }}
              columns={[
                { id: 'resource', label: 'Server address', sortable: true },
                { id: 'state', label: 'State', sortable: true },
                { id: 'subject', label: 'Whose', sortable: true },
                { id: 'issuer', label: 'Issuer' },
                { id: 'expires', label: 'Access token expires', sortable: true },
                { id: 'actions', label: 'Actions', hideLabel: true },
              ]}
              rows={credentialItems.map((credential) => ({
                id: credential.id,
                cells: [
                  <code key="resource" className={catalogStyles.name}>
                    {credential.resource}
                  </code>,
                  <Word key="state" state={credential.state} />,
                  <span key="subject">
                    {credential.subject === 'user'
                      ? 'Yours'
                      : `Service credential of ${workspaceNames.get(credential.workspaceId ?? '') ?? 'a workspace'}`}
                  </span>,
                  <code key="issuer" className={catalogStyles.name}>
                    {credential.issuer}
                  </code>,
                  <span key="expires">{expiry(credential.accessTokenExpiresAt)}</span>,
                  credential.subject === 'user' ? (
                    <SignOutForm key="actions" credentialId={credential.id} target={credential.resource} />
                  ) : (
                    <span key="actions" className="muted">
                      An admin changes it
                    </span>
                  ),
                ],
                sort: [
                  credential.resource,
                  credential.state,
                  credential.subject,
                  null,
                  credential.accessTokenExpiresAt,
                  null,
                ],
                search: `${credential.resource} ${credential.issuer} ${SIGN_IN_WORDS[credential.state]}`,
              }))}
            />
          )}
        </Panel>
      ) : null}
    </div>
  );
}
