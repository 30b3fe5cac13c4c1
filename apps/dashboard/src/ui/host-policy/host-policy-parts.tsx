import { formatArgv, poolsAllowingCommand } from '@/server/host-policy-input';
import { Badge } from '@/ui/feedback';
import overviewStyles from '@/ui/overview.module.css';
import type { PoolCeilingView } from '@/views/approval-views';
import styles from './host-policy.module.css';

// The host policy page's read-only parts: an operator pool's ceiling and the tenant's saved commands.

function ArgvList({ argvs, label }: { argvs: readonly (readonly string[])[]; label: string }) {
  if (argvs.length === 0) return <span className="muted">None</span>;
  return (
    <ul className={styles.argvList} aria-label={label}>
      {argvs.map((argv) => (
        <li key={formatArgv(argv)}>
          <code>{formatArgv(argv)}</code>
        </li>
      ))}
    </ul>
  );
}

export function PoolCeiling({ pool }: { pool: PoolCeilingView }) {
  return (
    <section className={styles.pool} aria-labelledby={`pool-${pool.pool}`} data-pool={pool.pool}>
      <h3 id={`pool-${pool.pool}`}>
        Pool <code>{pool.pool}</code>
      </h3>
      <dl className={overviewStyles.definition}>
        <dt>Stdio servers</dt>
        <dd>
          <Badge tone={pool.stdio ? 'positive' : 'neutral'}>{pool.stdio ? 'Allowed' : 'Not allowed'}</Badge>
        </dd>
        <dt>Header helpers</dt>
        <dd>
          <Badge tone={pool.headerHelpers ? 'positive' : 'neutral'}>
            {pool.headerHelpers ? 'Allowed' : 'Not allowed'}
          </Badge>
        </dd>
        <dt>Command ceiling</dt>
        <dd>
          <ArgvList argvs={pool.commandCeiling} label={`Command ceiling of ${pool.pool}`} />
        </dd>
        <dt>Allowed roots</dt>
        <dd>
          {pool.allowedRoots.length === 0 ? (
            <span className="muted">None</span>
          ) : (
            pool.allowedRoots.map((root) => (
              <code key={root} className="nowrap">
                {root}{' '}
              </code>
            ))
          )}
        </dd>
        <dt>Private ranges</dt>
        <dd>
          {pool.privateRangesTenantsMayOptInto.length === 0 ? (
            <span className="muted">None</span>
          ) : (
            pool.privateRangesTenantsMayOptInto.map((cidr) => (
              <code key={cidr} className="nowrap">
                {cidr}{' '}
              </code>
            ))
          )}
        </dd>
      </dl>
    </section>
  );
}

export function SavedCommands({
  argvs,
  kind,
  pools,
  label,
}: {
  argvs: readonly (readonly string[])[];
  kind: 'stdio' | 'headerHelpers';
  pools: readonly PoolCeilingView[];
  label: string;
}) {
  if (argvs.length === 0) return <span className="muted">None</span>;
  return (
    <ul className={styles.argvList} aria-label={label}>
      {argvs.map((argv) => {
        const fits = poolsAllowingCommand(argv, kind, pools);
        return (
          <li key={formatArgv(argv)} className="row">
            <code>{formatArgv(argv)}</code>
            {fits.length > 0 ? (
              <span className="muted">allowed on {fits.join(', ')}</span>
            ) : (
              <Badge tone="caution">Outside every pool’s ceiling now</Badge>
            )}
          </li>
        );
      })}
    </ul>
  );
}
