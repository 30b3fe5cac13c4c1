import type { ProjectionChangeView } from '@/views/approval-views';
import { Badge, type BadgeTone } from '../feedback';
import serverStyles from '../servers/servers.module.css';
import styles from './approvals.module.css';
import { reviewModelOf, whereItMayRun, type KeyMark, type ReviewedField } from './review-model';

const KEY_MARKS: Readonly<Record<Exclude<KeyMark, null>, { label: string; tone: BadgeTone }>> = {
  added: { label: 'added', tone: 'positive' },
  removed: { label: 'removed', tone: 'negative' },
  value_changed: { label: 'value changed', tone: 'caution' },
};

function Changed({ changed }: { changed: boolean }) {
  return changed ? (
    <span data-changed="true">
      <Badge tone="caution">changed</Badge>
    </span>
  ) : null;
}

function FieldRow({ field, code = true }: { field: ReviewedField; code?: boolean }) {
  return (
    <>
      <dt>{field.label}</dt>
      <dd>
        <span className={styles.reviewValue}>
          {code ? <code>{field.value}</code> : <span>{field.value}</span>}
          <Changed changed={field.changed} />
        </span>
      </dd>
    </>
  );
}

/** Where the reviewed definition applies, from the request's identity (names, not ids). */
export interface ReviewPlace {
  readonly workspaceName: string;
  readonly generation: number | null;
  readonly repository: string | null;
}

/**
 * The definition an approver decides on, read as what runs: the command line (with its working directory) or
 * the URL, the env or header KEYS with a mark on each one added, removed or whose value changed since the last
 * approval (values are never sent), the options, and where it may run. The API's projection as JSON is one
 * click away. A projection of a shape this does not know shows as JSON only.
 */
export function ReviewedProjection({
  projection,
  changes = [],
  place,
  idPrefix,
}: {
  projection: Readonly<Record<string, unknown>>;
  changes?: readonly ProjectionChangeView[];
  place?: ReviewPlace;
  /** Distinguishes the key lists of several reviews on one page (their accessible names). */
  idPrefix: string;
}) {
  const model = reviewModelOf(projection, changes);
  const json = (
    <pre className={serverStyles.codeBlock} data-projection="json">
      {JSON.stringify(projection, null, 2)}
    </pre>
  );
  if (model === null) {
    return (
      <div className="stack-sm" data-projection="reviewed">
        {json}
      </div>
    );
  }
  const keysId = `${idPrefix}-keys`;
  return (
    <div className="stack-sm" data-projection="reviewed" data-review-kind={model.kind}>
      <dl className={styles.review}>
        <FieldRow field={{ ...model.target, label: model.kind === 'stdio' ? 'Runs' : 'Connects to' }} />
        {model.details.map((field) => (
          <FieldRow key={field.label} field={field} />
        ))}
        <dt id={keysId}>{model.keysLabel}</dt>
        <dd>
          {model.keys.length === 0 ? (
            <span className="muted">None</span>
          ) : (
            <span className="stack-sm">
              <ul className={styles.reviewKeys} aria-labelledby={keysId}>
                {model.keys.map((item) => (
                  <li key={`${item.key}:${item.mark ?? ''}`} data-key-mark={item.mark ?? 'same'}>
                    {item.mark === 'removed' ? (
                      <del className={styles.removedKey}>
                        <code>{item.key}</code>
                      </del>
                    ) : (
                      <code>{item.key}</code>
                    )}
                    {item.mark !== null ? (
                      <Badge tone={KEY_MARKS[item.mark].tone}>{KEY_MARKS[item.mark].label}</Badge>
                    ) : null}
                  </li>
                ))}
              </ul>
              <span className="muted">Keys only: values are configured and never shown.</span>
            </span>
          )}
        </dd>
        <dt>Options</dt>
        <dd>
          {model.options.length === 0 ? (
            <span className="muted">Defaults</span>
          ) : (
            <dl className={styles.reviewOptions}>
              {model.options.map((field) => (
                <FieldRow key={field.label} field={field} code={false} />
              ))}
            </dl>
          )}
        </dd>
        <dt>Where it may run</dt>
        <dd>
          <span className="stack-sm">
            {place !== undefined ? (
              <span>
                In workspace <strong>{place.workspaceName}</strong>
                {place.generation !== null ? `, generation ${place.generation}` : ''}
                {place.repository !== null ? (
                  <>
                    , repository <code>{place.repository}</code>
                  </>
                ) : null}
                .
              </span>
            ) : null}
            <span>{whereItMayRun(model.kind)}</span>
            <span className={styles.reviewValue}>
              <span>
                {model.requiresTrustedWorkspace.label}: {model.requiresTrustedWorkspace.value}
              </span>
              <Changed changed={model.requiresTrustedWorkspace.changed} />
            </span>
          </span>
        </dd>
      </dl>
      <details className={styles.projection}>
        <summary>Show as JSON</summary>
        {json}
      </details>
    </div>
  );
}
