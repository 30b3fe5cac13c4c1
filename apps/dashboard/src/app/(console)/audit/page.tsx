import type { Metadata } from 'next';
import { actorDirectory } from '@/server/actor-directory';
import { getAuditHead, listAuditEvents, verifyAuditChain } from '@/server/api-queries';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import {
  TARGET_KIND_OPTIONS,
  exportHref,
  filtersAsParams,
  hasFilters,
  readAuditFilters,
  toApiFilters,
} from '@/ui/audit/audit-filters';
import { AuditTable } from '@/ui/audit/audit-table';
import { ButtonLink, buttonClassName } from '@/ui/button';
import { DateTime } from '@/ui/date-time';
import { Badge, Callout, EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import { SelectField, TextField, formStyles } from '@/ui/form-fields';
import styles from '@/ui/overview.module.css';
import { PageHeader } from '@/ui/page-header';
import { Pager } from '@/ui/pager';
import { DEFAULT_PAGE_SIZE, firstParam, readPageCursor, readPageSize, type SearchParams } from '@/ui/paging';

export const metadata: Metadata = { title: 'Audit log' };

const PROBLEM_TEXT: Readonly<Record<string, string>> = {
  hash_mismatch: 'its contents do not match its hash (the row was changed)',
  broken_link: 'it does not link to the row before it (a row was removed or replaced)',
  sequence_gap: 'the sequence has a gap (a row was removed)',
  truncated: 'the newest rows are missing (the chain was truncated)',
  checkpoint_mismatch: 'it does not match the checkpoint',
};

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

      <Panel
        id="chain-status"
        title="Chain status"
        description="Recomputed from the first row each time this page loads."
      >
        {!verification.ok ? (
          <ProblemCallout problem={verification.problem} context="The chain could not be verified" />
        ) : verification.data.ok ? (
          <Callout tone="success" title="Chain intact">
            <p>
              {verification.data.checkedRows} rows checked; every hash matches and links to the row before it.
            </p>
          </Callout>
        ) : (
          <div role="alert">
            <Callout tone="warning" title={`Chain broken at row #${verification.data.firstBadSeq ?? '?'}`}>
              <p>
                Row #{verification.data.firstBadSeq ?? '?'} fails:{' '}
                {PROBLEM_TEXT[verification.data.problem ?? ''] ?? verification.data.problem}. Rows from there
                on cannot be relied on; restore them from a backup and compare with your exported checkpoints.
              </p>
            </Callout>
          </div>
        )}
        {head.ok ? (
          <dl className={styles.definition}>
            <dt>Head</dt>
            <dd>
              Row #{head.data.seq} at <DateTime value={head.data.at} />
            </dd>
            <dt>Head hash</dt>
            <dd>
              <code>{head.data.hash}</code>
            </dd>
            <dt>Checkpoint</dt>
            <dd className="muted">
              Keep the head outside Gatehouse (GET /v1/audit-events/head) to detect deletion of the newest
              rows.
            </dd>
          </dl>
        ) : (
          <ProblemCallout problem={head.problem} context="The chain head could not be loaded" />
        )}
      </Panel>

      <Panel id="audit-filters" title="Filters" description="Times are in UTC.">
        <form method="get" action="/audit" className="stack-sm" role="search" aria-label="Audit events">
          {pageSize !== DEFAULT_PAGE_SIZE ? <input type="hidden" name="limit" value={pageSize} /> : null}
          <div className={formStyles.inline}>
            {actors.length > 0 ? (
              <SelectField
                id="filter-actor"
                name="actor"
                label="Actor"
                options={[{ value: '', label: 'Anyone' }, ...actors]}
                defaultValue={filters.actor}
              />
            ) : (
              <TextField
                id="filter-actor"
                name="actor"
                label="Actor (user id)"
                defaultValue={filters.actor}
              />
            )}
            <TextField
              id="filter-action"
              name="action"
              label="Action"
              hint="Or a family: approvals covers every approvals action."
              placeholder="approvals"
              defaultValue={filters.action}
            />
            <SelectField
              id="filter-target-kind"
              name="targetKind"
              label="Target type"
              options={TARGET_KIND_OPTIONS}
              defaultValue={filters.targetKind}
            />
            <TextField
              id="filter-target-id"
              name="targetId"
              label="Target id"
              defaultValue={filters.targetId}
            />
            <TextField
              id="filter-from"
              name="from"
              type="datetime-local"
              label="From"
              defaultValue={filters.from}
            />
            <TextField id="filter-to" name="to" type="datetime-local" label="To" defaultValue={filters.to} />
          </div>
          <div className={formStyles.actions}>
            <button type="submit" className={buttonClassName('primary')}>
              Apply filters
            </button>
            {hasFilters(filters) ? (
              <ButtonLink href="/audit" variant="ghost">
                Clear filters
              </ButtonLink>
            ) : null}
            {hasFilters(filters) ? <Badge tone="accent">Filtered</Badge> : null}
          </div>
          <p className="muted" id="audit-export">
            Export {hasFilters(filters) ? 'these filtered events' : 'every event'}:{' '}
            <a href={exportHref(filters, 'jsonl')} download>
              JSON lines
            </a>{' '}
            ·{' '}
            <a href={exportHref(filters, 'csv')} download>
              CSV
            </a>
          </p>
        </form>
      </Panel>

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
