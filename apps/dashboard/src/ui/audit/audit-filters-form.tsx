import { ButtonLink, buttonClassName } from '@/ui/button';
import { Badge, Panel } from '@/ui/feedback';
import { SelectField, TextField, formStyles } from '@/ui/form-fields';
import { DEFAULT_PAGE_SIZE } from '@/ui/paging';
import { TARGET_KIND_OPTIONS, exportHref, hasFilters, type AuditFilterValues } from './audit-filters';

// The audit page's filters (a GET form, so a filtered view is a link) and the export of what they select.
export function AuditFiltersForm({
  filters,
  actors,
  pageSize,
}: {
  filters: AuditFilterValues;
  actors: readonly { value: string; label: string }[];
  pageSize: number;
}) {
  return (
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
            <TextField id="filter-actor" name="actor" label="Actor (user id)" defaultValue={filters.actor} />
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
  );
}
