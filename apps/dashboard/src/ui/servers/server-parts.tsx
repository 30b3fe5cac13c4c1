import type {
  EffectiveEntryView,
  KeysOnlyView,
  ProjectionView,
  SourceRefView,
} from '@/views/definition-views';
import { Badge } from '../feedback';
import styles from './servers.module.css';
import { reasonLabel, STATUS_LABELS, TIER_LABELS } from './definition-labels';

// Small read-only pieces of the Servers pages (server components): a status badge, a source, the shadowed
// entries on expand, env/header keys, and a redacted projection. Everything shown is what the API projected:
// masked stretches stay masked, env and header values are never there to show.

export function StatusBadge({ entry }: { entry: Pick<EffectiveEntryView, 'status'> }) {
  const { label, tone } = STATUS_LABELS[entry.status];
  return <Badge tone={tone}>{label}</Badge>;
}

/**
 * A source: its tier, the human name behind its origin's ids when the page knows it (`originInWords`: the
 * workspace's name for `project:<uuid>`), and the origin as the API spells it, for searching logs.
 */
export function SourceLabel({ source, name }: { source: SourceRefView; name?: string | null }) {
  return (
    <span className="cell-stack">
      <span>
        {TIER_LABELS[source.tier].label}
        {name ? ` · ${name}` : ''}
      </span>
      <code className="muted">{source.origin}</code>
    </span>
  );
}

export function ShadowedEntries({ entry }: { entry: EffectiveEntryView }) {
  if (entry.shadowed.length === 0) return <span className="muted">None</span>;
  return (
    <details className={styles.shadowed}>
      <summary>
        {entry.shadowed.length} shadowed {entry.shadowed.length === 1 ? 'entry' : 'entries'}
      </summary>
      <ul>
        {entry.shadowed.map((shadowed) => (
          <li key={shadowed.source.origin}>
            {TIER_LABELS[shadowed.source.tier].label} <code>{shadowed.source.origin}</code> ({shadowed.state})
          </li>
        ))}
      </ul>
    </details>
  );
}

export function KeysList({ keys, label }: { keys: KeysOnlyView; label: string }) {
  if (keys.state === 'none') return <span className="muted">None</span>;
  return (
    <span className="stack-sm">
      <ul className={styles.keys} aria-label={label}>
        {keys.keys.map((key) => (
          <li key={key}>
            <Badge>
              <code>{key}</code>
            </Badge>
          </li>
        ))}
      </ul>
      <span className="muted">Values are configured and never shown.</span>
    </span>
  );
}

export function EntryReason({ entry }: { entry: EffectiveEntryView }) {
  if (entry.reason === null) return null;
  return (
    <span className="cell-stack">
      <span>{reasonLabel(entry.reason)}</span>
      <code className="muted">{entry.reason}</code>
    </span>
  );
}

/** The definition's target at a glance: a command line or a URL. */
export function TargetSummary({ projection }: { projection: ProjectionView | null }) {
  if (projection === null) return <span className="muted">—</span>;
  const transport = projection.transport;
  return <code>{transport.kind === 'stdio' ? transport.commandLine : transport.url}</code>;
}
