import { SIGN_IN_WORDS } from '@/server/sign-in-state';
import catalogStyles from '@/ui/catalog/catalog.module.css';
import { DataTable } from '@/ui/data-table';
import type { OAuthCredentialView } from '@/views/catalog-views';
import { SignInWordBadge, TokenExpiry } from './connection-cells';
import { SignOutForm } from './connection-forms';

// Every credential the person holds in the tenant, with sign-out for their own.
export function OwnCredentialsTable({
  credentialItems,
  workspaceNames,
}: {
  credentialItems: readonly OAuthCredentialView[];
  workspaceNames: ReadonlyMap<string, string>;
}) {
  return (
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
          <SignInWordBadge key="state" state={credential.state} />,
          <span key="subject">
            {credential.subject === 'user'
              ? 'Yours'
              : `Service credential of ${workspaceNames.get(credential.workspaceId ?? '') ?? 'a workspace'}`}
          </span>,
          <code key="issuer" className={catalogStyles.name}>
            {credential.issuer}
          </code>,
          <span key="expires">
            <TokenExpiry iso={credential.accessTokenExpiresAt} />
          </span>,
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
  );
}
