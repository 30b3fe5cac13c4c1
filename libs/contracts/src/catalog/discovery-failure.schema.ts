import { z } from 'zod';
import { PROBE_FAILURE_CLASSES } from '../api/probe.schema';

// Why a worker's discovery of one server failed (docs/decisions/0142-discovery-failures-visible.md): the failure
// class and one fixed word from libs/mcp-client, both from closed lists, never an error's text (which may hold an
// address, argv, stderr or a token). What a person reads is the sentence this file holds for the word, so no
// producer can put free text in front of anyone.

/** libs/mcp-client's FailureClass: the same five words a probe reports. */
export const DISCOVERY_FAILURE_CLASSES = PROBE_FAILURE_CLASSES;
export const discoveryFailureClass = z.enum(DISCOVERY_FAILURE_CLASSES);
export type DiscoveryFailureClass = z.infer<typeof discoveryFailureClass>;

/**
 * Every reason word a discovery may end with, and what it means in a sentence. The words are libs/mcp-client's
 * ConnectFailureReason (what connecting answers), the fixed words classifyFailure gives a thrown failure, and the
 * supervisor's and the worker's own; a word the client may add later is reported as `unlisted` until it is added
 * here (the worker's mapper holds the ConnectFailureReason part to this list at compile time).
 */
export const DISCOVERY_FAILURE_SENTENCES = {
  // Connecting: the definition, the pool's authority or the admission refused it.
  invalid_description: 'the lease carried a transport description the worker cannot use',
  startup_timeout_invalid: "the definition's startup timeout is outside what the worker accepts",
  no_longer_admitted: 'the server was no longer admitted when the worker was about to connect',
  stdio_not_allowed_on_pool: 'the worker pool does not run stdio servers',
  nul_in_launch: 'the command line contains a NUL character',
  command_not_allowed: "the command is not on the tenant's allowed command list",
  command_outside_ceiling: "the command is outside the operator's command ceiling for the pool",
  env_key_not_allowed: 'the definition sets an environment variable the pool does not allow',
  cwd_outside_allowed_roots: "the working directory is outside the pool's allowed roots",
  no_allowed_root: 'the pool has no allowed root to run the command in',
  cwd_not_a_directory: 'the working directory is not a directory',
  cwd_escapes_root: 'the working directory leaves its allowed root',
  cwd_writable: "the server's account may write its working directory, so it is not run",
  principal_header_collision: 'a configured header collides with the header that names the principal',
  run_as_required: 'the pool must run the server as a separate account and cannot',
  spawn_failed: 'the command could not be started',
  // Connecting: the server's answer.
  startup_timeout: 'the server did not finish its handshake within the startup timeout',
  protocol_version_refused: 'the server refused every protocol version we speak',
  auth_refused: 'the server refused the credentials it was sent',
  authenticator_failed: 'the credentials for the server could not be obtained',
  egress_failed: "the connection to the server's address failed or the network policy refused it",
  connection_failed: 'the connection to the server failed',
  // A failure thrown on the way (classifyFailure's words).
  http_unauthorized: 'the server answered 401 or 403',
  http_unavailable: 'the server answered that it is unavailable (429 or 5xx)',
  http_refused: 'the server refused the request over HTTP',
  message_too_large: 'the server sent a message larger than the bound',
  child_exited: 'the server process exited',
  not_connected: 'the connection was not open',
  send_backlog: 'the server stopped reading what was sent to it',
  request_timeout: 'a request to the server timed out',
  connection_closed: 'the server closed the connection',
  server_internal_error: 'the server answered with an internal error',
  server_refused_request: 'the server refused a request of the handshake or the listing',
  unauthorized: 'the server asked for authorization',
  malformed_message: 'the server sent a message that is not valid MCP',
  unsupported_protocol_version: 'the server answered with a protocol version we do not speak',
  network_unavailable: 'the network to the server was unavailable',
  not_runnable: 'the command or its working directory could not be found or run',
  unexpected_failure: 'an unexpected failure; the worker log has the details',
  // The supervisor's and the worker's own.
  closed_while_connecting: 'the discovery was stopped while it was connecting',
  no_catalog: 'the server connected but no catalog came of it',
  unlisted: 'a failure Gatehouse has no sentence for yet; the worker log names it',
} as const satisfies Record<string, string>;

export type DiscoveryFailureReason = keyof typeof DISCOVERY_FAILURE_SENTENCES;
export const DISCOVERY_FAILURE_REASONS = Object.keys(DISCOVERY_FAILURE_SENTENCES) as [
  DiscoveryFailureReason,
  ...DiscoveryFailureReason[],
];
export const discoveryFailureReason = z.enum(DISCOVERY_FAILURE_REASONS);

export function isDiscoveryFailureReason(word: string): word is DiscoveryFailureReason {
  return Object.hasOwn(DISCOVERY_FAILURE_SENTENCES, word);
}

/** What a worker posts for the lease it held (`catalog.reportFailure`): the class and the word, nothing else. */
export const discoveryFailureReport = z.strictObject({
  failureClass: discoveryFailureClass,
  reason: discoveryFailureReason,
});
export type DiscoveryFailureReport = z.infer<typeof discoveryFailureReport>;

/** The last failure as readers see it: the words, the API's sentence for the reason, and when it was reported. */
export const discoveryFailureView = z.strictObject({
  failureClass: discoveryFailureClass,
  reason: discoveryFailureReason,
  /** DISCOVERY_FAILURE_SENTENCES[reason]: fixed text, never the upstream's or the worker's words. */
  detail: z.string().min(1).max(200),
  at: z.iso.datetime(),
});
export type DiscoveryFailureView = z.infer<typeof discoveryFailureView>;

/** The view of a stored failure; a word this version does not list (an older writer's) reads as `unlisted`. */
export function discoveryFailureViewOf(stored: {
  readonly failureClass: string;
  readonly reason: string;
  readonly at: Date;
}): DiscoveryFailureView {
  const parsedClass = discoveryFailureClass.safeParse(stored.failureClass);
  const reason = isDiscoveryFailureReason(stored.reason) ? stored.reason : 'unlisted';
  return {
    failureClass: parsedClass.success ? parsedClass.data : 'fatal',
    reason,
    detail: DISCOVERY_FAILURE_SENTENCES[reason],
    at: stored.at.toISOString(),
  };
}

/** One line for people: `protocol_version_refused: the server refused every protocol version we speak`. */
export function discoveryFailureLine(failure: Pick<DiscoveryFailureView, 'reason'>): string {
  return `${failure.reason}: ${DISCOVERY_FAILURE_SENTENCES[failure.reason]}`;
}
