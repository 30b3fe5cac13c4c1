import { isEgressError } from '@gatehouse/egress';
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { isMcpTransportError, type McpTransportError } from '../transport/transport-error';

/**
 * What a connection failure asks of whoever holds it. Only `transient` is retried (bounded, with jitter); the
 * others surface for the caller to act on: `auth` (sign in again, or a refused credential), `protocol` (the server
 * speaks something we do not: a refused version, malformed messages), `config` (the definition or the admission
 * refuses it: fix the definition or the policy), `fatal` (a bug or an unknown failure: never looped on).
 */
export type FailureClass = 'transient' | 'auth' | 'protocol' | 'config' | 'fatal';
export const FAILURE_CLASSES: readonly FailureClass[] = ['transient', 'auth', 'protocol', 'config', 'fatal'];

export interface ClassifiedFailure {
  readonly failureClass: FailureClass;
  /** A fixed word (never an error's text, which may carry an address, argv or stderr). */
  readonly reason: string;
}

/**
 * An error that knows its class: the transports and refusals of this lib carry one, so the supervisor need not
 * guess from their shape.
 */
export interface SelfClassifiedError {
  readonly failureClass: FailureClass;
  readonly reason: string;
}

const isSelfClassified = (error: unknown): error is SelfClassifiedError =>
  typeof error === 'object' &&
  error !== null &&
  FAILURE_CLASSES.includes((error as { failureClass?: FailureClass }).failureClass as FailureClass) &&
  typeof (error as { reason?: unknown }).reason === 'string';

const TRANSIENT_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const CONFIG_SYSTEM_CODES = new Set(['ENOENT', 'EACCES', 'EPERM', 'ENOTDIR', 'ENOTFOUND']);

function classifyHttpStatus(status: number | undefined): ClassifiedFailure {
  if (status === 401 || status === 403) return { failureClass: 'auth', reason: 'http_unauthorized' };
  if (status === 408 || status === 429 || (status !== undefined && status >= 500))
    return { failureClass: 'transient', reason: 'http_unavailable' };
  return { failureClass: 'protocol', reason: 'http_refused' };
}

/**
 * Our transports' own refusals, as connectAdmitted classes them at connect: a call refused the same way (its
 * token refused again after the one fresh lease: `auth_refused`) is the same failure, not an unknown one.
 */
function classifyTransportError(error: McpTransportError): ClassifiedFailure {
  switch (error.reason) {
    case 'auth_refused':
    case 'authenticator_failed':
      return { failureClass: 'auth', reason: error.reason };
    case 'egress_failed':
      return error.detail === 'timeout' || error.detail === 'connection_failed' || error.detail === null
        ? { failureClass: 'transient', reason: 'egress_failed' }
        : { failureClass: 'config', reason: 'egress_failed' };
    case 'message_too_large':
      return { failureClass: 'protocol', reason: error.reason };
    case 'child_exited':
    case 'not_connected':
    // A child that stopped reading: a new one may read; the reconnect waits a backoff first (the supervisor).
    case 'send_backlog':
      return { failureClass: 'transient', reason: error.reason };
    case 'spawn_failed':
      return { failureClass: 'fatal', reason: error.reason };
  }
}

/** A JSON-RPC error the server answered with. */
function classifyProtocolError(error: ProtocolError): ClassifiedFailure {
  if (error.code === (ProtocolErrorCode.InternalError as number))
    return { failureClass: 'transient', reason: 'server_internal_error' };
  if (error.code === (ProtocolErrorCode.UnsupportedProtocolVersion as number))
    return { failureClass: 'protocol', reason: 'unsupported_protocol_version' };
  return { failureClass: 'protocol', reason: 'server_refused_request' };
}

/** A failure the SDK raised locally (it never crossed the wire). */
function classifySdkError(error: SdkError): ClassifiedFailure {
  if (error instanceof SdkHttpError) {
    if (
      error.code === SdkErrorCode.ClientHttpAuthentication ||
      error.code === SdkErrorCode.ClientHttpForbidden
    )
      return { failureClass: 'auth', reason: 'http_unauthorized' };
    return classifyHttpStatus(error.status);
  }
  switch (error.code) {
    case SdkErrorCode.RequestTimeout:
      return { failureClass: 'transient', reason: 'request_timeout' };
    case SdkErrorCode.ConnectionClosed:
    case SdkErrorCode.NotConnected:
    case SdkErrorCode.SendFailed:
      return { failureClass: 'transient', reason: 'connection_closed' };
    case SdkErrorCode.EraNegotiationFailed:
      return { failureClass: 'protocol', reason: 'unsupported_protocol_version' };
    case SdkErrorCode.InvalidResult:
      return { failureClass: 'protocol', reason: 'malformed_message' };
    // An upstream's input_required the SDK could not fulfil within its rounds, or a result kind it cannot read.
    case SdkErrorCode.InputRequiredRoundsExceeded:
    case SdkErrorCode.UnsupportedResultType:
    case SdkErrorCode.CapabilityNotSupported:
    case SdkErrorCode.MethodNotSupportedByProtocolVersion:
      return { failureClass: 'protocol', reason: 'server_refused_request' };
    default:
      return { failureClass: 'fatal', reason: 'unexpected_failure' };
  }
}

/** Classifies a thrown connection or request failure. Total: what it does not know is `fatal`. */
export function classifyFailure(error: unknown): ClassifiedFailure {
  if (isSelfClassified(error)) return { failureClass: error.failureClass, reason: error.reason };
  if (isMcpTransportError(error)) return classifyTransportError(error);
  if (error instanceof UnauthorizedError) return { failureClass: 'auth', reason: 'unauthorized' };
  if (error instanceof SdkError) return classifySdkError(error);
  if (error instanceof ProtocolError) return classifyProtocolError(error);
  if (isEgressError(error)) {
    // A name that did not resolve may resolve on the next try (the resolver's own failures land here too).
    if (error.reason === 'timeout' || error.reason === 'connection_failed' || error.reason === 'unresolvable')
      return { failureClass: 'transient', reason: `egress_${error.reason}` };
    if (error.reason === 'response_too_large')
      return { failureClass: 'protocol', reason: 'egress_response_too_large' };
    return { failureClass: 'config', reason: `egress_${error.reason}` };
  }
  if (error instanceof Error) {
    if (error.name === 'AbortError' || error.name === 'TimeoutError')
      return { failureClass: 'transient', reason: 'request_timeout' };
    if (error.name === 'ZodError' || error.name === '$ZodError')
      return { failureClass: 'protocol', reason: 'malformed_message' };
    if (error.message.startsWith("Server's protocol version is not supported"))
      return { failureClass: 'protocol', reason: 'unsupported_protocol_version' };
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT_SYSTEM_CODES.has(code))
      return { failureClass: 'transient', reason: 'network_unavailable' };
    if (typeof code === 'string' && CONFIG_SYSTEM_CODES.has(code))
      return { failureClass: 'config', reason: 'not_runnable' };
  }
  return { failureClass: 'fatal', reason: 'unexpected_failure' };
}
