import Link from 'next/link';
import { sourceEntryView } from '@gatehouse/contracts';
import type { SourceVersionList, SourceVersionView } from '@/server/source-history-queries';
import { DateTime } from '../date-time';
import { Badge, type BadgeTone } from '../feedback';
import { KeysList, TargetSummary } from '../servers/server-parts';
import tableStyles from '../table.module.css';
import styles from './source-editor.module.css';

const TONES: Readonly<Record<string, BadgeTone>> = {
  added: 'positive',
  changed: 'caution',
  removed: 'negative',
};

/** One side of a changed entry, as projected: what runs (or where it connects) and its env or header keys. */
function Side({ entry }: { entry: Record<string, unknown> | null }) {
  if (entry === null) return <span className="muted">absent</span>;
  const parsed = sourceEntryView.safeParse(entry);
  if (!parsed.success) return <span className="muted">—</span>;
  const view = parsed.data;
  if (view.projection === undefined) return <Badge tone="negative">{view.state}</Badge>;
  const transport = view.projection.transport;
  return (
    <span className="cell-stack">
      <TargetSummary projection={view.projection} />
      {transport.kind === 'stdio' ? (
        <KeysList keys={transport.env} label="Environment variable keys" />
      ) : (
        <KeysList keys={transport.headers} label="Header keys" />
      )}
    </span>
  );
}

/**
 * A source's versions, newest first, each a link to what changed since the one before; the chosen version's
 * diff per entry, both sides as the API projects them (a changed secret shows as a change with the same keys).
 */
export function SourceHistory({
  versions,
  shown,
  hrefFor,
}: {
  versions: SourceVersionList;
  shown: SourceVersionView | null;
  hrefFor: (version: number) => string;
}) {
  const changes = shown?.changes.filter((change) => change.change !== 'unchanged') ?? [];
  return (
    <div className="stack-sm">
      <ol className={styles.changeList} aria-label="Versions" reversed>
        {versions.items.map((item) => (
          <li key={item.version} className={styles.changeItem}>
            <Link
              href={hrefFor(item.version)}
              aria-current={shown?.version === item.version ? 'true' : undefined}
            >
              Version {item.version}
            </Link>
            <span className="muted">
              <DateTime value={item.createdAt} />
              {item.writtenByName ? ` by ${item.writtenByName}` : ''} · {item.entries}{' '}
              {item.entries === 1 ? 'server' : 'servers'}
              {item.problems > 0 ? `, ${item.problems} with problems` : ''}
            </span>
            {item.version === versions.currentVersion ? <Badge tone="accent">current</Badge> : null}
          </li>
        ))}
      </ol>
      {shown !== null ? (
        <section aria-labelledby="version-diff-title" className="stack-sm" id="version-diff">
          <h3 id="version-diff-title">
            Version {shown.version}
            {shown.against === null ? ' (the first)' : `, compared with version ${shown.against}`}
          </h3>
          {changes.length === 0 ? (
            <p className="muted">
              {shown.against === null ? 'No servers.' : 'No server changed between these versions.'}
            </p>
          ) : (
            <div className={tableStyles.scroll}>
              <table className={tableStyles.table} aria-label={`Changes in version ${shown.version}`}>
                <thead>
                  <tr>
                    <th scope="col">Server</th>
                    <th scope="col">Change</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {changes.map((change) => (
                    <tr key={change.name}>
                      <th scope="row">{change.name}</th>
                      <td>
                        <Badge tone={TONES[change.change] ?? 'neutral'}>{change.change}</Badge>
                      </td>
                      <td>
                        <Side entry={change.before} />
                      </td>
                      <td>
                        <Side entry={change.after} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ) : null}
    </div>
  );
}
