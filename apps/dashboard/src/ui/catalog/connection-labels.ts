import type { ServerProbeStatusView } from '@/views/catalog-views';

// The words of a probe report: the state a worker found the server in, and for a failure its class (what
// retrying would do, or what must change first: libs/mcp-client's FailureClass) with the client's fixed reason.

export const CONNECTION_STATE_WORDS: Readonly<Record<ServerProbeStatusView['state'], string>> = {
  ready: 'Connected',
  failed: 'Failed',
};

type FailureClass = NonNullable<ServerProbeStatusView['failureClass']>;

export const FAILURE_CLASS_WORDS: Readonly<Record<FailureClass, { label: string; detail: string }>> = {
  transient: { label: 'Transient', detail: 'It may pass: the next probe tries again.' },
  auth: { label: 'Authentication', detail: 'The server refused the credentials: sign in again or fix them.' },
  protocol: { label: 'Protocol', detail: 'The server answered in a way MCP does not allow.' },
  config: { label: 'Configuration', detail: 'The definition must change before it can connect.' },
  fatal: { label: 'Fatal', detail: 'It will not connect as it is: retrying does not help.' },
};

/** "connection_failed" -> "connection failed": the client's reasons are fixed snake_case words. */
export function reasonInWords(reason: string): string {
  return reason.replaceAll('_', ' ');
}

/** Whose connection a report is about, as the person reading it says it. */
export function probeSubject(probe: ServerProbeStatusView): string {
  return probe.principalUserId === null ? 'The workspace' : 'You';
}
