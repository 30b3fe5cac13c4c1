// The one error a Gatehouse transport raises for what it refused or could not complete. It names the server's
// origin (http) or the server's name (stdio) only: never argv, env, header values, a URL path, or stderr text.

export type TransportFailureReason =
  /** A message (a stdio line, an HTTP JSON body, one SSE event) larger than the receive cap. */
  | 'message_too_large'
  /** The child could not be started (the text of the OS error is not kept: it can name the command). */
  | 'spawn_failed'
  /** The child closed its end (or exited) while the session was open. */
  | 'child_exited'
  /** The child left more than the bound of what we wrote to it unread: it stopped reading its stdin. */
  | 'send_backlog'
  /** Sent on a transport that is not (or no longer) open. */
  | 'not_connected'
  /** The server refused the credential, and no fresh one may be had (or it was refused too). */
  | 'auth_refused'
  /** The authenticator (a header helper, an OAuth token source) could not give headers. */
  | 'authenticator_failed'
  /** The pinned fetch refused or failed (its own reason is in `detail`). */
  | 'egress_failed';

export class McpTransportError extends Error {
  override readonly name = 'McpTransportError';

  constructor(
    readonly reason: TransportFailureReason,
    /** `scheme://host:port` for http, `stdio:<server>` for a child. */
    readonly origin: string,
    /** A stable code beside the reason (the egress reason, a refused helper's reason); never a value. */
    readonly detail: string | null = null,
  ) {
    super(`mcp transport ${reason}: ${origin}${detail === null ? '' : ` (${detail})`}`);
  }
}

export function isMcpTransportError(error: unknown): error is McpTransportError {
  return error instanceof McpTransportError;
}

/** Default receive cap: bytes one message may have before the SDK parses anything. */
export const DEFAULT_RECEIVE_CAP_BYTES = 8 * 1024 * 1024;
