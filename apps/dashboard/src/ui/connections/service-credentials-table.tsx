import type { OAuthCredentialView } from '@/views/catalog-views';
import { ServiceSignOutForm } from './connection-forms';
import { CredentialsTable } from './credentials-table';

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
    <CredentialsTable
      caption={`Service credentials of ${workspace.name}`}
      filterLabel="Filter service credentials"
      credentials={serviceItems}
      actions={(credential) => (
        <ServiceSignOutForm
          workspaceId={workspace.id}
          credentialId={credential.id}
          target={credential.resource}
        />
      )}
    />
  );
}
