import Link from 'next/link';
import type { ServerSignIn } from '@/server/sign-in-state';
import { signInLabel } from '@/server/sign-in-state';
import catalogStyles from '@/ui/catalog/catalog.module.css';
import { DataTable } from '@/ui/data-table';
import type { EffectiveEntryView } from '@/views/definition-views';
import { SignInWordBadge, TokenExpiry } from './connection-cells';
import { ShareSignInForm, SignInForm, SignOutForm } from './connection-forms';

/** The definition lets the workspace's service credential serve it (decision 0082). */
function sharedUse(entry: EffectiveEntryView): boolean {
  const transport = entry.projection?.transport;
  return transport?.kind === 'http' && transport.oauth?.allowSharedCredential === true;
}

export interface OAuthServerRow {
  readonly entry: EffectiveEntryView;
  readonly signIn: ServerSignIn;
}

// The servers of one workspace that use OAuth, as the person gets them: their own sign-in first, then the
// workspace's service credential where the definition allows shared use; sign in, share and sign out.
export function OAuthServersTable({
  workspace,
  oauthServers,
  can,
}: {
  workspace: { readonly id: string; readonly name: string };
  oauthServers: readonly OAuthServerRow[];
  can: { readonly signInToServers: boolean; readonly manageWorkspaces: boolean };
}) {
  return (
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
            <SignInWordBadge key="state" state={signIn.state} label={signInLabel(signIn)} />,
            <span key="subject">
              {serving === null ? '—' : serving.subject === 'user' ? 'Yours' : 'Workspace service credential'}
            </span>,
            <code key="issuer" className={catalogStyles.name}>
              {serving?.issuer ?? '—'}
            </code>,
            <span key="expires">
              <TokenExpiry iso={serving?.accessTokenExpiresAt} />
            </span>,
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
                <SignOutForm credentialId={signIn.own.id} target={entry.name} workspaceId={workspace.id} />
              ) : null}
            </span>,
          ],
          sort: [entry.name, signIn.state, null, null, null, null],
          search: `${entry.name} ${signInLabel(signIn)} ${serving?.issuer ?? ''}`,
        };
      })}
    />
  );
}
