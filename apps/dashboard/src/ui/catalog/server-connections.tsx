import { DataTable } from '@/ui/data-table';
import { EmptyState } from '@/ui/feedback';
import { Pager } from '@/ui/pager';
import type { PageCursor } from '@/ui/paging';
import type { LeaseHolderView, ServerStatusView } from '@/views/catalog-views';
import catalogStyles from './catalog.module.css';
import { ConnectionProbes } from './connection-probes';
import { formatUtcTime } from './utc-time';

// The server's connections as the API may tell a person (servers.status): the state a worker last found it in
// (for the workspace alone, and for the reader where approved per user) with the failure class and reason, and
// who holds a live lease now, named by token and pool. Nothing of a lease's transport ever reaches this page.

const TOKEN_KIND_WORDS: Readonly<Record<LeaseHolderView['token']['kind'], string>> = {
  worker: 'Worker token',
  gateway: 'Gatehouse gateway',
  agent: 'Agent token',
  user: 'User token',
};

/** Where the lease holders' pages are: the server page's path, the parameters it keeps, the page shown. */
export interface LeaseHolderPaging {
  readonly path: string;
  readonly keep: Readonly<Record<string, string | undefined>>;
  readonly current: PageCursor;
  readonly pageSize: number;
}

export function ServerConnections({
  status,
  fingerprint,
  paging,
}: {
  status: ServerStatusView;
  /** The definition's fingerprint now, to tell a report about an earlier definition. */
  fingerprint: string | null;
  paging: LeaseHolderPaging;
}) {
  const holders = status.leaseHolders.items;
  const nextCursor = status.leaseHolders.nextCursor;
  // Paged newest issued first by the API (decision 0099): a page past the first, or one with more after it.
  const paged = paging.current.cursor !== undefined || nextCursor !== null;
  return (
    <div className="stack">
      <h3>Connection state</h3>
      <ConnectionProbes probes={status.probes} fingerprint={fingerprint} />
      <h3>Lease holders</h3>
      {holders.length === 0 && paging.current.cursor === undefined ? (
        <EmptyState title="No live leases">
          Nothing holds a connection to it now: workers lease it while they discover or probe, the gateway
          while agents use it.
        </EmptyState>
      ) : (
        <DataTable
          caption={`Live leases of ${status.serverName}`}
          filterable={holders.length > 10}
          filterLabel="Filter lease holders"
          initialSort={{ column: 'issued', direction: 'descending' }}
          columns={[
            { id: 'holder', label: 'Holder', sortable: true },
            { id: 'pool', label: 'Pool', sortable: true },
            { id: 'principal', label: 'For' },
            { id: 'issued', label: 'Issued', sortable: true },
            { id: 'expires', label: 'Expires', sortable: true },
          ]}
          rows={holders.map((holder) => ({
            id: holder.leaseId,
            cells: [
              <span key="holder" className="cell-stack">
                <span>{holder.token.name ?? TOKEN_KIND_WORDS[holder.token.kind]}</span>
                <span className="muted">{TOKEN_KIND_WORDS[holder.token.kind]}</span>
              </span>,
              <code key="pool" className={catalogStyles.name}>
                {holder.pool}
              </code>,
              <span key="principal">
                {holder.principal === null
                  ? 'The workspace'
                  : (holder.principal.displayName ?? holder.principal.userId)}
              </span>,
              <time key="issued" dateTime={holder.issuedAt}>
                {formatUtcTime(holder.renewedAt ?? holder.issuedAt)}
                {holder.renewedAt ? ' (renewed)' : null}
              </time>,
              <time key="expires" dateTime={holder.expiresAt}>
                {formatUtcTime(holder.expiresAt)}
              </time>,
            ],
            sort: [
              holder.token.name ?? holder.token.kind,
              holder.pool,
              null,
              holder.issuedAt,
              holder.expiresAt,
            ],
            search: `${holder.token.name ?? ''} ${holder.token.kind} ${holder.pool} ${holder.principal?.displayName ?? ''}`,
          }))}
        />
      )}
      {paged ? (
        <Pager
          path={paging.path}
          keep={paging.keep}
          current={paging.current}
          nextCursor={nextCursor}
          pageSize={paging.pageSize}
          label={`Pages of the live leases of ${status.serverName}`}
        />
      ) : null}
    </div>
  );
}
