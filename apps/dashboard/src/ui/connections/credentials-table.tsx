import { Fragment, type ReactNode } from 'react';
import { SIGN_IN_WORDS } from '@/server/sign-in-state';
import catalogStyles from '@/ui/catalog/catalog.module.css';
import { DataTable, type TableColumn } from '@/ui/data-table';
import type { OAuthCredentialView } from '@/views/catalog-views';
import { SignInWordBadge, TokenExpiry } from './connection-cells';

/**
 * OAuth credentials by server address: state, issuer, when the access token expires, and what the viewer may do
 * with each. `whose`, when given, adds a column that says whose credential it is.
 */
export function CredentialsTable({
  caption,
  filterLabel,
  credentials,
  whose,
  actions,
}: {
  caption: string;
  filterLabel: string;
  credentials: readonly OAuthCredentialView[];
  whose?: (credential: OAuthCredentialView) => string;
  actions: (credential: OAuthCredentialView) => ReactNode;
}) {
  const columns: TableColumn[] = [
    { id: 'resource', label: 'Server address', sortable: true },
    { id: 'state', label: 'State', sortable: true },
    ...(whose ? [{ id: 'subject', label: 'Whose', sortable: true }] : []),
    { id: 'issuer', label: 'Issuer' },
    { id: 'expires', label: 'Access token expires', sortable: true },
    { id: 'actions', label: 'Actions', hideLabel: true },
  ];
  return (
    <DataTable
      caption={caption}
      filterLabel={filterLabel}
      initialSort={{ column: 'resource', direction: 'ascending' }}
      columns={columns}
      rows={credentials.map((credential) => ({
        id: credential.id,
        cells: [
          <code key="resource" className={catalogStyles.name}>
            {credential.resource}
          </code>,
          <SignInWordBadge key="state" state={credential.state} />,
          ...(whose ? [<span key="subject">{whose(credential)}</span>] : []),
          <code key="issuer" className={catalogStyles.name}>
            {credential.issuer}
          </code>,
          <span key="expires">
            <TokenExpiry iso={credential.accessTokenExpiresAt} />
          </span>,
          <Fragment key="actions">{actions(credential)}</Fragment>,
        ],
        sort: [
          credential.resource,
          credential.state,
          ...(whose ? [credential.subject] : []),
          null,
          credential.accessTokenExpiresAt,
          null,
        ],
        search: `${credential.resource} ${credential.issuer} ${SIGN_IN_WORDS[credential.state]}`,
      }))}
    />
  );
}
