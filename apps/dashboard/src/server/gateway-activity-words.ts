import type { GatewayActivityRefusal, GatewayCallOutcome } from '@gatehouse/contracts';

// The Gateway panel's words for what the gateway recorded (decision 0118): each tools/call outcome and each
// refusal reason of the workspace's own callers, in a sentence a person can act on. One table each, like the
// audit labels; a word a newer gateway adds shows as itself until it has a label here.

const OUTCOME_LABELS: Readonly<Record<GatewayCallOutcome, string>> = {
  ok: 'Answered',
  tool_error: 'Answered with a tool error',
  unknown_tool: 'Refused: not a tool this caller is served',
  invalid_arguments: 'Refused: arguments did not match the tool’s schema',
  catalog_unavailable: 'Failed: the workspace catalog could not be read',
  upstream_unavailable: 'Failed: the upstream server could not be reached',
};

const REFUSAL_LABELS: Readonly<Record<GatewayActivityRefusal, string>> = {
  rate_limited_token: 'A token made too many requests (per-token rate limit)',
  rate_limited_workspace: 'The workspace received too many requests (per-workspace rate limit)',
  session_not_found: 'A client named a session the gateway no longer has (it re-initializes)',
  session_limit: 'A token held as many busy sessions as it may and was refused another',
  server_not_found: 'A passthrough named a server the caller is not served',
};

export function callOutcomeLabel(outcome: string): string {
  return (OUTCOME_LABELS as Readonly<Record<string, string>>)[outcome] ?? outcome;
}

export function refusalReasonLabel(reason: string): string {
  return (REFUSAL_LABELS as Readonly<Record<string, string>>)[reason] ?? reason;
}

/** "1 open session", "3 open sessions on 2 replicas". */
export function sessionsInWords(liveSessions: number, replicas: number): string {
  const sessions = `${liveSessions} open session${liveSessions === 1 ? '' : 's'}`;
  return replicas > 1 ? `${sessions} on ${replicas} gateway replicas` : sessions;
}

/** "No calls in the last hour", "1 call in the last hour", "12 calls in the last 60 minutes". */
export function countInWords(count: number, one: string, many: string, windowMinutes: number): string {
  const window = windowMinutes === 60 ? 'the last hour' : `the last ${windowMinutes} minutes`;
  if (count === 0) return `No ${many} in ${window}`;
  return `${count} ${count === 1 ? one : many} in ${window}`;
}
