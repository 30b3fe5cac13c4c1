import serverStyles from '../servers/servers.module.css';
import { targetOfProjection } from './approval-labels';

/**
 * The definition an approver decides on, as the API projected it for the request: what it runs or connects to
 * at a glance, then every field (secrets masked by the API; env and header values never there).
 */
export function ReviewedProjection({ projection }: { projection: Readonly<Record<string, unknown>> }) {
  const target = targetOfProjection(projection);
  return (
    <div className="stack-sm">
      {target !== null ? (
        <p>
          <span className="muted">{target.kind === 'stdio' ? 'Runs' : 'Connects to'}</span>{' '}
          <code>{target.target}</code>
        </p>
      ) : null}
      <pre className={serverStyles.codeBlock} data-projection="reviewed">
        {JSON.stringify(projection, null, 2)}
      </pre>
    </div>
  );
}
