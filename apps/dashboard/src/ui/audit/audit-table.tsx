import type { AuditEventView } from '../../views/api-views';
import { DataTable, type TableColumn, type TableRow } from '../data-table';
import { formatDateTime } from '../date-time';
import { Badge } from '../feedback';
import { actionLabel, actorLabel, targetLabel, type ActorDirectory } from './audit-labels';
import type { ReactNode } from 'react';

const COLUMNS: readonly TableColumn[] = [
  { id: 'seq', label: '#', sortable: true, numeric: true },
  { id: 'when', label: 'When', sortable: true },
  { id: 'actor', label: 'Actor', sortable: true },
  { id: 'action', label: 'Action', sortable: true },
  { id: 'target', label: 'Target', sortable: true },
  { id: 'outcome', label: 'Outcome', sortable: true },
];

export function auditRows(events: readonly AuditEventView[], directory: ActorDirectory): TableRow[] {
  return events.map((event) => {
    const actor = actorLabel(event, directory);
    const target = targetLabel(event);
    return {
      id: event.id,
      cells: [
        event.seq,
        <time key="t" dateTime={event.occurredAt}>
          {formatDateTime(event.occurredAt)}
        </time>,
        actor,
        <span key="a" className="cell-stack">
          <span>{actionLabel(event.action)}</span>
          <code className="muted">{event.action}</code>
        </span>,
        <span key="g" title={event.targetId ?? undefined}>
          {target}
        </span>,
        <Badge key="o" tone={event.outcome === 'success' ? 'positive' : 'negative'}>
          {event.outcome}
        </Badge>,
      ],
      sort: [event.seq, event.occurredAt, actor, event.action, target, event.outcome],
      search: [actor, event.action, actionLabel(event.action), target, event.targetId ?? '', event.outcome].join(' '),
    };
  });
}

export function AuditTable({
  events,
  directory,
  caption,
  footer,
}: {
  events: readonly AuditEventView[];
  directory: ActorDirectory;
  caption: string;
  footer?: ReactNode;
}) {
  return (
    <DataTable
      caption={caption}
      columns={COLUMNS}
      rows={auditRows(events, directory)}
      initialSort={{ column: 'seq', direction: 'descending' }}
      footer={footer}
    />
  );
}
