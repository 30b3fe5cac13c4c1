'use client';

import type { StoredVersion } from '@/server/actions/source-editor.actions';
import { Button } from '@/ui/button';
import styles from './source-editor.module.css';
import type { VersionConflict as Conflict } from './use-source-editor';

/** Someone saved while this editor was open: both versions side by side, and the two ways on. */
export function VersionConflict({
  conflict,
  onKeepMine,
  onLoadStored,
}: {
  conflict: Conflict;
  onKeepMine: (stored: StoredVersion) => void;
  onLoadStored: (stored: StoredVersion) => void;
}) {
  const { stored } = conflict;
  return (
    <section aria-labelledby="conflict-title" className="stack-sm" data-conflict>
      <h3 id="conflict-title">Someone saved version {stored.version} while you edited</h3>
      <p>
        Your changes are not saved. Here are both versions: keep editing yours on top of theirs, or start from
        theirs.
      </p>
      <div className={styles.versions}>
        <div>
          <h4>Your version</h4>
          <pre aria-label="Your version" tabIndex={0}>
            {conflict.mine}
          </pre>
        </div>
        <div>
          <h4>Stored version {stored.version}</h4>
          <pre aria-label={`Stored version ${stored.version}`} tabIndex={0}>
            {JSON.stringify(stored.editableDocument, null, 2)}
          </pre>
        </div>
      </div>
      <div className={styles.actions}>
        <Button onClick={() => onKeepMine(stored)}>Keep mine, on top of version {stored.version}</Button>
        <Button variant="ghost" onClick={() => onLoadStored(stored)}>
          Discard mine, load version {stored.version}
        </Button>
      </div>
    </section>
  );
}
