'use client';

import type { SourcePreview } from '@/server/actions/source-editor.actions';
import { Badge, Callout, type BadgeTone } from '../feedback';
import { describeProblem, problemPath } from '../servers/definition-labels';
import styles from './source-editor.module.css';

const CHANGE_TONES: Readonly<Record<string, BadgeTone>> = {
  added: 'positive',
  changed: 'caution',
  removed: 'negative',
  unchanged: 'neutral',
};

function who(principalUserId: string | null): string {
  return principalUserId === null ? 'for the workspace' : 'for one person';
}

/** Entries the API would store as malformed or rejected: the save is refused until they decode. */
export function refusedEntries(preview: SourcePreview): SourcePreview['entries'] {
  return preview.entries.filter((entry) => entry.state === 'malformed' || entry.state === 'rejected');
}

/**
 * What saving would do, as the API's dry run answered it: the version it writes (or that it writes nothing),
 * each entry added, changed or removed, the approvals it takes out of force, and the requests it opens. Entries
 * the API cannot decode are listed with their problems; the editor refuses to save them.
 */
export function SavePreview({ preview }: { preview: SourcePreview }) {
  const changed = preview.entries.filter((entry) => entry.change !== 'unchanged');
  const refused = refusedEntries(preview);
  return (
    <section className={styles.preview} aria-labelledby="save-preview-title" id="save-preview">
      <h3 id="save-preview-title">What saving does</h3>
      {preview.nextVersion === null ? (
        <Callout tone="info" title="No changes">
          <p>The document is the stored one: saving writes no new version and opens no request.</p>
        </Callout>
      ) : (
        <p>
          {preview.currentVersion === null
            ? `Creates ${preview.origin} as version ${preview.nextVersion}.`
            : `Replaces version ${preview.currentVersion} of ${preview.origin} with version ${preview.nextVersion}.`}
        </p>
      )}
      {changed.length > 0 ? (
        <ul className={styles.changeList} aria-label="Entries">
          {changed.map((entry) => (
            <li key={entry.name} className={styles.changeItem} data-preview-entry={entry.name}>
              <Badge tone={CHANGE_TONES[entry.change] ?? 'neutral'}>{entry.change}</Badge>
              <strong>{entry.name}</strong>
              {entry.state === 'malformed' || entry.state === 'rejected' ? (
                <Badge tone="negative">
                  {entry.state === 'rejected' ? 'unsupported transport' : 'does not decode'}
                </Badge>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {refused.length > 0 ? (
        <Callout tone="warning" title="Fix these entries before saving">
          <ul className={styles.warnings}>
            {refused.map((entry) => (
              <li key={entry.name}>
                <strong>{entry.name}</strong>:{' '}
                {entry.problems.length === 0
                  ? 'its transport is not supported (stdio and Streamable HTTP are).'
                  : entry.problems
                      .map((problem) => `${problemPath(problem) || 'entry'} ${describeProblem(problem)}`)
                      .join('; ')}
              </li>
            ))}
          </ul>
        </Callout>
      ) : null}
      {preview.staleApprovals.length > 0 ? (
        <div>
          <h4>Approvals this takes out of force</h4>
          <ul className={styles.changeList} aria-label="Approvals going stale">
            {preview.staleApprovals.map((approval) => (
              <li
                key={`${approval.workspaceId}/${approval.principalUserId ?? ''}/${approval.serverName}`}
                className={styles.changeItem}
              >
                <strong>{approval.serverName}</strong> in {approval.workspaceName},{' '}
                {who(approval.principalUserId)}: approved now,{' '}
                {approval.becomes === 'removed' ? 'gone after saving' : `${approval.becomes} after saving`}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {preview.requests.length > 0 ? (
        <div>
          <h4>Approval requests</h4>
          <ul className={styles.changeList} aria-label="Approval requests">
            {preview.requests.map((request) => (
              <li
                key={`${request.workspaceId}/${request.principalUserId ?? ''}/${request.serverName}`}
                className={styles.changeItem}
              >
                <strong>{request.serverName}</strong> in {request.workspaceName},{' '}
                {who(request.principalUserId)}:{' '}
                {request.outcome === 'opened'
                  ? 'a request opens for an approver'
                  : 'its open request stays open'}
              </li>
            ))}
          </ul>
        </div>
      ) : preview.nextVersion !== null ? (
        <p className="muted">No approval request opens.</p>
      ) : null}
    </section>
  );
}
