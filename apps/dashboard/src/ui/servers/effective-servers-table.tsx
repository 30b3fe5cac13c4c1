import Link from 'next/link';
import type { ComponentProps } from 'react';
import { SIGN_IN_WORDS, needsSignIn, serverSignIn } from '@/server/sign-in-state';
import { ActivationCell } from '@/ui/approvals/activation-parts';
import { ACTIVATION_STATE_LABELS } from '@/ui/approvals/approval-labels';
import { originInWords, sourceNames } from '@/ui/approvals/review-model';
import { CatalogMarks } from '@/ui/catalog/server-catalog';
import { DataTable } from '@/ui/data-table';
import type { OAuthCredentialView } from '@/views/catalog-views';
import type { EffectiveEntryView, EffectiveViewKind } from '@/views/definition-views';
import { shortFingerprint, STATUS_LABELS } from './definition-labels';
import { EntryReason, ShadowedEntries, SourceLabel, StatusBadge, TargetSummary } from './server-parts';

type CatalogServer = ComponentProps<typeof CatalogMarks>['server'];

// The effective servers of a workspace, one row per name: status (and sign-in), approval, catalog marks, the
// winning source, what it runs or connects to, what it shadows, its fingerprint.
export function EffectiveServersTable({
  workspace,
  entries,
  view,
  catalogServers,
  credentialItems,
  canReadApprovals,
  canRequestReview,
}: {
  workspace: { readonly id: string; readonly name: string };
  entries: readonly EffectiveEntryView[];
  view: EffectiveViewKind;
  catalogServers: ReadonlyMap<string, CatalogServer>;
  credentialItems: readonly OAuthCredentialView[];
  canReadApprovals: boolean;
  canRequestReview: boolean;
}) {
  const base = `/servers/${workspace.id}`;
  const detailQuery = view === 'principal' ? '?view=principal' : '';
  return (
    <DataTable
      caption={`Effective servers of ${workspace.name}`}
      filterLabel="Filter servers"
      initialSort={{ column: 'name', direction: 'ascending' }}
      columns={[
        { id: 'name', label: 'Server', sortable: true },
        { id: 'status', label: 'Status', sortable: true },
        { id: 'approval', label: 'Approval', sortable: true },
        { id: 'catalog', label: 'Your catalog' },
        { id: 'source', label: 'Winning source', sortable: true },
        { id: 'target', label: 'Runs / connects to' },
        { id: 'shadowed', label: 'Shadowed' },
        { id: 'fingerprint', label: 'Fingerprint' },
      ]}
      rows={entries.map((entry) => {
        const catalogServer = catalogServers.get(entry.name);
        const signIn = serverSignIn(entry, workspace.id, credentialItems);
        return {
          id: entry.name,
          cells: [
            <Link key="name" href={`${base}/server/${encodeURIComponent(entry.name)}${detailQuery}`}>
              {entry.name}
            </Link>,
            <span key="status" className="cell-stack">
              <StatusBadge entry={entry} />
              <EntryReason entry={entry} />
              {needsSignIn(signIn) && signIn ? (
                <Link href={`/connections?workspace=${workspace.id}`}>
                  {signIn.state === 'signed_out' ? 'Needs sign-in' : SIGN_IN_WORDS[signIn.state]}
                </Link>
              ) : null}
            </span>,
            <ActivationCell
              key="approval"
              entry={entry}
              target={{
                workspaceId: workspace.id,
                view,
                canReadApprovals: canReadApprovals,
                canRequestReview: canRequestReview,
              }}
            />,
            catalogServer ? (
              <CatalogMarks key="catalog" server={catalogServer} />
            ) : (
              <span key="catalog" className="muted">
                —
              </span>
            ),
            <SourceLabel
              key="source"
              source={entry.source}
              name={originInWords(entry.source, sourceNames(workspace))}
            />,
            <TargetSummary key="target" projection={entry.projection} />,
            <ShadowedEntries key="shadowed" entry={entry} />,
            <code key="fingerprint" className="nowrap">
              {shortFingerprint(entry.fingerprint)}
            </code>,
          ],
          sort: [entry.name, entry.status, entry.activation.state, null, entry.source.tier, null, null, null],
          search: `${entry.name} ${STATUS_LABELS[entry.status].label} ${ACTIVATION_STATE_LABELS[entry.activation.state].label} ${entry.source.origin} ${entry.reason ?? ''}${needsSignIn(signIn) ? ' needs sign-in' : ''}`,
        };
      })}
    />
  );
}
