import { SIGN_IN_WORDS } from '@/server/sign-in-state';
import catalogStyles from '@/ui/catalog/catalog.module.css';
import { DataTable } from '@/ui/data-table';
import type { OAuthCredentialView } from '@/views/catalog-views';
import { SignInWordBadge, TokenExpiry } from './connection-cells';
import { ServiceSignOutForm } from './connection-forms';

// The workspace's service credentials (decision 0098), for owners and admins: each with the form that signs the
// workspace out of it.
export function ServiceCredentialsTable({
  workspace,
  serviceItems,
}: {
  workspace: { readonly id: string; readonly name: string };
  serviceItems: readonly OAuthCredentialView[];
}) {
  return (
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
          <SignInWordBadge key="state" state={credential.state} />,
          <code key="issuer" className={catalogStyles.name}>
            {credential.issuer}
          </code>,
          <span key="expires">
            <TokenExpiry iso={credential.accessTokenExpiresAt} />
          </span>,
          <ServiceSignOutForm
            key="actions"
            workspaceId={workspace.id}
            credentialId={credential.id}
            target={credential.resource}
          />,
        ],
        sort: [credential.resource, credential.state, null, credential.accessTokenExpiresAt, null],
        search: `${credential.resource} ${credential.issuer} ${SIGN_IN_WORDS[credential.state]}`,
      }))}
    />
  );
}
