import { Fragment } from 'react';
import { Badge } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';
import type { ServerStatusView } from '@/views/catalog-views';
import {
  CONNECTION_STATE_WORDS,
  FAILURE_CLASS_WORDS,
  probeSubject,
  reasonInWords,
} from './connection-labels';
import { formatUtcTime } from './utc-time';

// The state a worker last found the server in, for the workspace alone and for the reader where approved per
// user, with the failure class and reason.
export function ConnectionProbes({
  probes,
  fingerprint,
}: {
  probes: ServerStatusView['probes'];
  /** The definition's fingerprint now, to tell a report about an earlier definition. */
  fingerprint: string | null;
}) {
  if (probes.length === 0)
    return <p className="muted">No worker has probed it yet: the state shows after the next probe.</p>;
  return (
    <dl className={styles.definition}>
      {probes.map((probe) => {
        const failure = probe.failureClass ? FAILURE_CLASS_WORDS[probe.failureClass] : null;
        return (
          <Fragment key={probe.principalUserId ?? 'workspace'}>
            <dt>{probeSubject(probe)}</dt>
            <dd>
              <span className="cell-stack">
                <span className="row">
                  <Badge tone={probe.state === 'ready' ? 'positive' : 'negative'}>
                    {CONNECTION_STATE_WORDS[probe.state]}
                  </Badge>
                  {failure ? <Badge tone="caution">{failure.label}</Badge> : null}
                </span>
                {failure ? (
                  <span>
                    {failure.detail}
                    {probe.reason ? ` (${reasonInWords(probe.reason)})` : null}
                  </span>
                ) : probe.serverVersion ? (
                  <span className="muted">
                    Server {probe.serverVersion}
                    {probe.protocolVersion ? `, protocol ${probe.protocolVersion}` : null}
                  </span>
                ) : null}
                <span className="muted">
                  Probed <time dateTime={probe.probedAt}>{formatUtcTime(probe.probedAt)}</time>
                  {fingerprint !== null && probe.definitionFingerprint !== fingerprint
                    ? ', for an earlier definition'
                    : null}
                </span>
              </span>
            </dd>
          </Fragment>
        );
      })}
    </dl>
  );
}
