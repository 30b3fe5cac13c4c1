import type { Metadata } from 'next';
import { actorDirectory } from '@/server/actor-directory';
import { getAuditHead, listAuditEvents, verifyAuditChain } from '@/server/api-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import { filtersAsParams, hasFilters, readAuditFilters, toApiFilters } from '@/ui/audit/audit-filters';
import { AuditFiltersForm } from '@/ui/audit/audit-filters-form';
import { ChainStatusPanel } from '@/ui/audit/chain-status-panel';
import { AuditTable } from '@/ui/audit/audit-table';
import { ButtonLink } from '@/ui/button';
import { Callout, EmptyState, ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { Pager } from '@/ui/pager';
import { firstParam, readPageCursor, readPageSize, type SearchParams } from '@/ui/paging';

export const metadata: Metadata = { title: 'Audit log' };

// Next.js requires a page as the module's default export.
export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await pageAccess('readAudit');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can } = access;
  const params = await searchParams;
  const current = readPageCursor(params);
  const pageSize = readPageSize(params);
  const filters = readAuditFilters(params);
  const exportError = firstParam(params, 'exportError');

  const [events, head, verification, directory] = await Promise.all([
    listAuditEvents({ cursor: current.cursor, limit: pageSize, ...toApiFilters(filters) }),
    getAuditHead(),
    verifyAuditChain(),
    actorDirectory(can),
  ]);
  for (const result of [events, head, verification]) if (!result.ok) redirectIfSessionEnded(result.problem);
  const actors = Object.entries(directory).map(([id, name]) => ({ value: id, label: name ?? id }));

  return (
    <div className="stack">
      <PageHeader
        title="Audit log"
        description="Every change in this tenant, append-only. Each row carries the hash of the one before it, so a changed or removed row breaks the chain."
      />

      {exportError !== undefined && /^[a-z_0-9]{1,64}$/.test(exportError) ? (
        <div role="alert">
          <Callout tone="warning" title="The export could not be made">
            <p>
              The API refused it ({exportError}). Sign in again if your session ended, or check that you may
              read the audit log.
            </p>
          </Callout>
        </div>
      ) : null}

      <ChainStatusPanel verification={verification} head={head} />

      <AuditFiltersForm filters={filters} actors={actors} pageSize={pageSize} />

      {!events.ok ? (
        <ProblemCallout problem={events.problem} context="Audit events could not be loaded" />
      ) : events.data.items.length === 0 ? (
        <EmptyState
          title={hasFilters(filters) ? 'No events match these filters' : 'No audit events yet'}
          action={
            hasFilters(filters) ? (
              <ButtonLink href="/audit" variant="secondary">
                Clear filters
              </ButtonLink>
            ) : undefined
          }
        >
          {hasFilters(filters)
            ? 'Widen the time range or remove a filter.'
            : 'Sign-ins and every change to workspaces, members and tokens are recorded here.'}
        </EmptyState>
      ) : (
        <AuditTable
          events={events.data.items}
          directory={directory}
          caption="Audit events"
          footer={
            <Pager
              path="/audit"
              keep={filtersAsParams(filters)}
              current={current}
              pageSize={pageSize}
              nextCursor={events.data.nextCursor}
              label="Audit event pages"
            />
          }
        />
      )}
    </div>
  );
}
