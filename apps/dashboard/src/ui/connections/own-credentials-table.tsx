import type { OAuthCredentialView } from '@/views/catalog-views';
import { SignOutForm } from './connection-forms';
import { CredentialsTable } from './credentials-table';

// Every credential the person holds in the tenant, with sign-out for their own.
export function OwnCredentialsTable({
  credentialItems,
  workspaceNames,
}: {
  credentialItems: readonly OAuthCredentialView[];
  workspaceNames: ReadonlyMap<string, string>;
}) {
  return (
    <CredentialsTable
      caption="Your sign-ins"
      filterLabel="Filter sign-ins"
      credentials={credentialItems}
      whose={(credential) =>
        credential.subject === 'user'
          ? 'Yours'
          : `Service credential of ${workspaceNames.get(credential.workspaceId ?? '') ?? 'a workspace'}`
      }
      actions={(credential) =>
        credential.subject === 'user' ? (
          <SignOutForm credentialId={credential.id} target={credential.resource} />
        ) : (
          <span className="muted">An admin changes it</span>
        )
      }
    />
  );
}
