import type { ReactNode } from 'react';
import type { AuditEventView } from '@/views/api-views';
import { DataTable, type TableColumn, type TableRow } from '@/ui/data-table';
import { DateTime } from '@/ui/date-time';
import { Badge } from '@/ui/feedback';
import { AuditDetail } from './audit-detail';
import { actionLabel, actorLabel, targetLabel, type ActorDirectory } from './audit-labels';

const FULL: readonly TableColumn[] = [
  { id: 'seq', label: '#', sortable: true, numeric: true },
  { id: 'when', label: 'When', sortable: true },
  { id: 'actor', label: 'Actor', sortable: true },
  { id: 'action', label: 'Action', sortable: true },
  { id: 'target', label: 'Target', sortable: true },
  { id: 'outcome', label: 'Outcome', sortable: true },
];

/** For narrow places (the overview): what happened, by whom, when. */
const COMPACT: readonly TableColumn[] = [
  { id: 'when', label: 'When', sortable: true },
  { id: 'actor', label: 'Actor', sortable: true },
  { id: 'action', label: 'What', sortable: true },
];

function actionCell(event: AuditEventView, target: string, withTarget: boolean) {
  return (
    <span className="cell-stack">
      <span>
        {actionLabel(event.action)}
        {withTarget ? <span className="muted"> · {target}</span> : null}
        {event.outcome !== 'success' ? (
          <>
            {' '}
            <Badge tone="negative">{event.outcome}</Badge>
          </>
        ) : null}
      </span>
      <code className="muted">{event.action}</code>
    </span>
  );
}

export function auditRows(
  events: readonly AuditEventView[],
  directory: ActorDirectory,
  compact: boolean,
): TableRow[] {
  return events.map((event) => {
    const actor = actorLabel(event, directory);
    const target = targetLabel(event);
    const search = [
      actor,
      event.action,
      actionLabel(event.action),
      target,
      event.targetId ?? '',
      event.outcome,
    ].join(' ');
    if (compact) {
      return {
        id: event.id,
        cells: [<DateTime key="t" value={event.occurredAt} />, actor, actionCell(event, target, true)],
        sort: [event.occurredAt, actor, event.action],
        search,
      };
    }
    return {
      id: event.id,
      cells: [
        event.seq,
        <DateTime key="t" value={event.occurredAt} />,
        actor,
        actionCell(event, target, false),
        <span key="g" className="cell-stack">
          <span>{target}</span>
          <AuditDetail event={event} actor={actor} />
        </span>,
        <Badge key="o" tone={event.outcome === 'success' ? 'positive' : 'negative'}>
          {event.outcome}
        </Badge>,
      ],
      sort: [event.seq, event.occurredAt, actor, event.action, target, event.outcome],
      search,
    };
  });
}

export function AuditTable({
  events,
  directory,
  caption,
  footer,
  compact = false,
}: {
  events: readonly AuditEventView[];
  directory: ActorDirectory;
  caption: string;
  footer?: ReactNode;
  compact?: boolean;
}) {
  return (
    <DataTable
      caption={caption}
      columns={compact ? COMPACT : FULL}
      rows={auditRows(events, directory, compact)}
      initialSort={{ column: compact ? 'when' : 'seq', direction: 'descending' }}
      filterable={!compact}
      footer={footer}
    />
  );
}
