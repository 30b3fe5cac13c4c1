import { originInWords, type NameLookup } from '@/ui/approvals/review-model';
import { Panel } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';
import type { EffectiveEntryView } from '@/views/definition-views';
import { ShadowedEntries, SourceLabel } from './server-parts';

// What approvals and stored sign-ins are bound to: the winning source, what it shadows, fingerprint, identity.
export function ServerIdentityPanel({ entry, names }: { entry: EffectiveEntryView; names: NameLookup }) {
  return (
    <Panel
      id="server-identity"
      title="Identity"
      description="What approvals and stored sign-ins are bound to."
    >
      <dl className={styles.definition}>
        <dt>Winning source</dt>
        <dd>
          <SourceLabel source={entry.source} name={originInWords(entry.source, names)} />
        </dd>
        <dt>Shadowed</dt>
        <dd>
          <ShadowedEntries entry={entry} />
        </dd>
        <dt>Fingerprint</dt>
        <dd>
          {entry.fingerprint ? (
            <code>{entry.fingerprint}</code>
          ) : (
            <span className="muted">None (not resolved)</span>
          )}
        </dd>
        <dt>Security identity</dt>
        <dd>
          {entry.identity ? (
            <span className="cell-stack">
              <code>{entry.identity.display}</code>
              <code className="muted">{entry.identity.key}</code>
            </span>
          ) : (
            <span className="muted">None (not resolved)</span>
          )}
        </dd>
        <dt>Approved per user</dt>
        <dd>{entry.perUser === null ? '—' : entry.perUser ? 'Yes' : 'No'}</dd>
      </dl>
    </Panel>
  );
}
