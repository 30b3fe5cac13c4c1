import type { ApiResult } from '@/server/api-client';
import {
  callOutcomeLabel,
  countInWords,
  refusalReasonLabel,
  sessionsInWords,
} from '@/server/gateway-activity-words';
import { problemInWords } from '@/server/problem-words';
import type { GatewayActivityView } from '@/views/gateway-views';

// The live part of the Gateway panel (decision 0118): the workspace's open sessions, its calls
// of the last hour by outcome and the refusals of its own callers by reason, in words, as `gateway.activity`
// read them on this page load (the gateway flushes every few seconds). "Refresh the counts" loads the page
// again: its address carries the time of this read, because a link to the page's own address and fragment
// would only scroll. No CSS module here: the panel passes its table classes, so the section renders alone in
// its spec.

export interface GatewayActivityClasses {
  readonly table?: string;
  readonly numeric?: string;
}

export function GatewayActivitySection({
  activity,
  refreshPath,
  classes = {},
}: {
  activity: ApiResult<GatewayActivityView>;
  /** The page's own path; the link adds `?activity=<time of this read>#workspace-gateway`. */
  refreshPath: string;
  classes?: GatewayActivityClasses;
}) {
  const readAt = activity.ok ? Date.parse(activity.data.asOf) : Date.now();
  const refreshHref = `${refreshPath}?activity=${readAt}#workspace-gateway`;
  const refresh = <a href={refreshHref}>Refresh the counts</a>;
  if (!activity.ok) {
    const words = problemInWords(activity.problem);
    return (
      <section className="stack-sm" aria-labelledby="gateway-activity-heading">
        <h3 id="gateway-activity-heading">Live activity</h3>
        <p role="alert">
          The gateway activity could not be loaded: {words.title}. {refresh}
        </p>
      </section>
    );
  }
  const view = activity.data;
  return (
    <section className="stack-sm" aria-labelledby="gateway-activity-heading">
      <h3 id="gateway-activity-heading">Live activity</h3>
      <ul>
        <li>{sessionsInWords(view.liveSessions, view.replicas)}</li>
        <li>{countInWords(view.calls.total, 'tool call', 'tool calls', view.windowMinutes)}</li>
        <li>
          {countInWords(view.refusals.total, 'refused request', 'refused requests', view.windowMinutes)}
        </li>
      </ul>
      {view.calls.byOutcome.length > 0 ? (
        <table className={classes.table}>
          <caption>Tool calls in the last hour, by outcome</caption>
          <thead>
            <tr>
              <th scope="col">Outcome</th>
              <th scope="col" className={classes.numeric}>
                Calls
              </th>
            </tr>
          </thead>
          <tbody>
            {view.calls.byOutcome.map((entry) => (
              <tr key={entry.outcome}>
                <td>{callOutcomeLabel(entry.outcome)}</td>
                <td className={classes.numeric}>{entry.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {view.refusals.byReason.length > 0 ? (
        <table className={classes.table}>
          <caption>Refused requests in the last hour, by reason</caption>
          <thead>
            <tr>
              <th scope="col">Reason</th>
              <th scope="col" className={classes.numeric}>
                Requests
              </th>
            </tr>
          </thead>
          <tbody>
            {view.refusals.byReason.map((entry) => (
              <tr key={entry.reason}>
                <td>{refusalReasonLabel(entry.reason)}</td>
                <td className={classes.numeric}>{entry.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="muted">
        As of <time dateTime={view.asOf}>{view.asOf.slice(11, 19)} UTC</time>, a few seconds behind the
        gateway. Requests without a valid token of this workspace are not counted here. {refresh}
      </p>
    </section>
  );
}
