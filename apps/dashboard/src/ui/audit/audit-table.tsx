import type { ReactNode } from 'react';
import type { AuditEventView } from '@/views/api-views';
import { DataTable, type TableColumn, type TableRow } from '../data-table';
import { DateTime } from '../date-time';
import { Badge } from '../feedback';
import { actionLabel, actorLabel, detailEntries, targetLabel, type ActorDirectory } from './audit-labels';

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

/**
 * The row opened up: everything it recorded (the reason first), its ids and its link in the chain. A native
 * disclosure, so it opens with the keyboard and needs no script; long values wrap (audit-detail in globals).
 */
function AuditDetail({ event, actor }: { event: AuditEventView; actor: string }) {
  const entries = detailEntries(event);
  return (
    <details className="audit-detail">
      <summary>
        Details<span className="visually-hidden"> of event #{event.seq}</span>
      </summary>
      <dl>
        {entries.map(({ key, value }) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div>
          <dt>actor</dt>
          <dd>
            {actor}
            {event.actorId !== null ? <code> {event.actorId}</code> : null}
          </dd>
        </div>
        <div>
          <dt>target</dt>
          <dd>
            {event.targetType}
            {event.targetId !== null ? <code> {event.targetId}</code> : null}
          </dd>
        </div>
        <div>
          <dt>hash</dt>
          <dd>
            <code>{event.hash}</code>
          </dd>
        </div>
      </dl>
    </details>
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
