'use client';

import { Button } from '@/ui/button';
import { Badge } from '@/ui/feedback';
import type { PreviewEntry } from './preview-readings';
import { transportOf, type RawEntry } from './source-document';
import styles from './source-editor.module.css';

function targetOf(entry: RawEntry): string {
  if (transportOf(entry) === 'http') return typeof entry['url'] === 'string' ? entry['url'] : '';
  const args = Array.isArray(entry['args']) ? entry['args'].map(String) : [];
  return [typeof entry['command'] === 'string' ? entry['command'] : '', ...args].join(' ');
}

/** The servers of the document, each with what the last preview said of it and its edit and remove buttons. */
export function EntryList({
  entries,
  entryState,
  onEdit,
  onRemove,
}: {
  entries: readonly (readonly [string, RawEntry])[];
  entryState: ReadonlyMap<string, PreviewEntry>;
  onEdit: (name: string, entry: RawEntry) => void;
  onRemove: (name: string) => void;
}) {
  if (entries.length === 0) return <p className="muted">No servers in this source yet.</p>;
  return (
    <ul className={styles.entries} aria-label="Servers in this source">
      {entries.map(([name, entry]) => {
        const state = entryState.get(name);
        return (
          <li key={name} className={styles.entry} data-entry={name}>
            <span className={styles.entryName}>
              <strong>{name}</strong>
              <Badge>{transportOf(entry) === 'http' ? 'HTTP' : 'stdio'}</Badge>
              {state && state.change !== 'unchanged' ? <Badge tone="caution">{state.change}</Badge> : null}
              {state && state.state !== 'valid' && state.state !== null ? (
                <Badge tone="negative">does not decode</Badge>
              ) : null}
              <span className={styles.entryTarget}>{targetOf(entry)}</span>
            </span>
            <span className={styles.actions}>
              <Button size="small" onClick={() => onEdit(name, entry)}>
                Edit <span className="visually-hidden">{name}</span>
              </Button>
              <Button size="small" variant="dangerOutline" onClick={() => onRemove(name)}>
                Remove <span className="visually-hidden">{name}</span>
              </Button>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
