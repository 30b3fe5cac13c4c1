import type { AuditFilters } from '../../server/api-queries';
import { firstParam, type SearchParams } from '../paging';

// The audit log's filters as URL parameters (a GET form, so a filtered view can be bookmarked and shared) and
// as the API's query. Times are entered in UTC with <input type="datetime-local">, which has no zone.

export interface AuditFilterValues {
  readonly actor: string;
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string;
  readonly from: string;
  readonly to: string;
}

const LOCAL_MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const SAFE_TEXT = /^[\w.:@-]{1,100}$/;

function safe(value: string | undefined): string {
  return value !== undefined && SAFE_TEXT.test(value) ? value : '';
}

export function readAuditFilters(params: SearchParams): AuditFilterValues {
  const time = (name: string) => {
    const value = firstParam(params, name) ?? '';
    return LOCAL_MINUTE.test(value) ? value : '';
  };
  return {
    actor: safe(firstParam(params, 'actor')),
    action: safe(firstParam(params, 'action')),
    targetType: safe(firstParam(params, 'targetType')),
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
    targetType: text(values.targetType),
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
