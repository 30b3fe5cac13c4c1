import type { AuditEventView } from '@/views/api-views';
import { detailEntries } from './audit-labels';

/**
 * The row opened up: everything it recorded (the reason first), its ids and its link in the chain. A native
 * disclosure, so it opens with the keyboard and needs no script; long values wrap (audit-detail in globals).
 */
export function AuditDetail({ event, actor }: { event: AuditEventView; actor: string }) {
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
