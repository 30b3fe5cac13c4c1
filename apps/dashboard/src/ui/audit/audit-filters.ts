import { AUDIT_TARGET_KINDS } from '@gatehouse/contracts';
import type { AuditFilters } from '@/server/api-queries';
import { firstParam, type SearchParams } from '../paging';

// The audit log's filters as URL parameters (a GET form, so a filtered view can be bookmarked and shared) and
// as the API's query. Times are entered in UTC with <input type="datetime-local">, which has no zone. The
// action is a family ('approvals' covers every approvals.* action); the target kind one of AUDIT_TARGET_KINDS.

export interface AuditFilterValues {
  readonly actor: string;
  readonly action: string;
  readonly targetKind: string;
  readonly targetId: string;
  readonly from: string;
  readonly to: string;
}

const LOCAL_MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const SAFE_TEXT = /^[\w.:@-]{1,100}$/;
// The API's own shape of an action family: words joined by dots or underscores.
const ACTION_FAMILY = /^[A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z0-9]+)*$/;

function safe(value: string | undefined, shape = SAFE_TEXT): string {
  return value !== undefined && value.length <= 100 && shape.test(value) ? value : '';
}

export function readAuditFilters(params: SearchParams): AuditFilterValues {
  const time = (name: string) => {
    const value = firstParam(params, name) ?? '';
    return LOCAL_MINUTE.test(value) ? value : '';
  };
  const kind = firstParam(params, 'targetKind') ?? '';
  return {
    actor: safe(firstParam(params, 'actor')),
    action: safe(firstParam(params, 'action')?.trim(), ACTION_FAMILY),
    targetKind: Object.hasOwn(AUDIT_TARGET_KINDS, kind) ? kind : '',
    targetId: safe(firstParam(params, 'targetId')),
    from: time('from'),
    to: time('to'),
  };
}

export function toApiFilters(values: AuditFilterValues): AuditFilters {
  const utc = (value: string) => (value === '' ? undefined : `${value}:00Z`);
  const text = (value: string) => (value === '' ? undefined : value);
  return {
    actorId: text(values.actor),
    action: text(values.action),
    targetKind: text(values.targetKind),
    targetId: text(values.targetId),
    from: utc(values.from),
    to: utc(values.to),
  };
}

export function hasFilters(values: AuditFilterValues): boolean {
  return Object.values(values).some((value) => value !== '');
}

export function filtersAsParams(values: AuditFilterValues): Record<string, string | undefined> {
  return { ...values };
}

/** The export's address for the same filters (the dashboard's route, which streams the API's file through). */
export function exportHref(values: AuditFilterValues, format: 'jsonl' | 'csv'): string {
  const query = new URLSearchParams({ format });
  for (const [name, value] of Object.entries(values)) if (value !== '') query.set(name, value);
  return `/audit/export?${query.toString()}`;
}

export const TARGET_KIND_OPTIONS: readonly { value: string; label: string }[] = [
  { value: '', label: 'Any' },
  ...Object.entries(AUDIT_TARGET_KINDS).map(([value, kind]) => ({ value, label: kind.label })),
];
