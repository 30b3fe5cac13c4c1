import { auditActionLabel } from '@gatehouse/contracts';
import type { AuditEventViewModel } from './audit-event-view';

// The two export formats of the audit log, one row at a time (the route streams them). Both carry the
// readable label next to the code, so an export is read without the dashboard.

export const CSV_COLUMNS = [
  'seq',
  'occurredAt',
  'actorType',
  'actorId',
  'tokenKind',
  'action',
  'label',
  'targetType',
  'targetId',
  'outcome',
  'data',
  'hash',
] as const;

export function toJsonLine(event: AuditEventViewModel): string {
  return `${JSON.stringify({ ...event, label: auditActionLabel(event.action) })}\n`;
}

/**
 * One CSV field (RFC 4180: always quoted, quotes doubled). A value a spreadsheet would run as a formula (it
 * starts with =, +, -, @, a tab or a carriage return; tenant text such as a server name or a reason can) gets a
 * leading apostrophe, the OWASP-recommended neutralization: shown as text, never evaluated.
 */
export function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  const neutral = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${neutral.replaceAll('"', '""')}"`;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.map(csvField).join(',')}\r\n`;
}

export function toCsvLine(event: AuditEventViewModel): string {
  const cells: Record<(typeof CSV_COLUMNS)[number], string | number | null> = {
    seq: event.seq,
    occurredAt: event.occurredAt,
    actorType: event.actorType,
    actorId: event.actorId,
    tokenKind: event.tokenKind,
    action: event.action,
    label: auditActionLabel(event.action),
    targetType: event.targetType,
    targetId: event.targetId,
    outcome: event.outcome,
    data: JSON.stringify(event.data),
    hash: event.hash,
  };
  return `${CSV_COLUMNS.map((column) => csvField(cells[column])).join(',')}\r\n`;
}
