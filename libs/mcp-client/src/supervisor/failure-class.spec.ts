import { EgressError } from '@gatehouse/egress';
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { McpTransportError } from '../transport/transport-error';
import { backoffDelayMs } from './backoff.policy';
import { classifyFailure } from './failure-class';

const httpError = (status: number) =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `HTTP ${status}`, { status });
const systemError = (code: string) => Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { code });

describe('classifyFailure', () => {
  it.each([
    [new SdkError(SdkErrorCode.RequestTimeout, 't'), 'transient', 'request_timeout'],
    [new SdkError(SdkErrorCode.ConnectionClosed, 'c'), 'transient', 'connection_closed'],
    [new ProtocolError(ProtocolErrorCode.InternalError, 'i'), 'transient', 'server_internal_error'],
    [new ProtocolError(ProtocolErrorCode.InvalidParams, 'p'), 'protocol', 'server_refused_request'],
    [new SdkError(SdkErrorCode.EraNegotiationFailed, 'e'), 'protocol', 'unsupported_protocol_version'],
    [new SdkError(SdkErrorCode.InputRequiredRoundsExceeded, 'r'), 'protocol', 'server_refused_request'],
    [httpError(401), 'auth', 'http_unauthorized'],
    [httpError(403), 'auth', 'http_unauthorized'],
    [httpError(503), 'transient', 'http_unavailable'],
    [httpError(429), 'transient', 'http_unavailable'],
    [httpError(404), 'protocol', 'http_refused'],
    [new UnauthorizedError('sign in'), 'auth', 'unauthorized'],
    [new McpTransportError('auth_refused', 'https://a.test'), 'auth', 'auth_refused'],
    [new McpTransportError('authenticator_failed', 'https://a.test'), 'auth', 'authenticator_failed'],
    [new McpTransportError('egress_failed', 'https://a.test', 'timeout'), 'transient', 'egress_failed'],
    [new McpTransportError('egress_failed', 'https://a.test', 'redirect_refused'), 'config', 'egress_failed'],
    [new McpTransportError('message_too_large', 'https://a.test'), 'protocol', 'message_too_large'],
    [new McpTransportError('child_exited', 'stdio:s'), 'transient', 'child_exited'],
    [new EgressError('connection_failed', 'https://a.test'), 'transient', 'egress_connection_failed'],
    [new EgressError('unresolvable', 'https://a.test'), 'transient', 'egress_unresolvable'],
    [new EgressError('redirect_refused', 'https://a.test'), 'config', 'egress_redirect_refused'],
    [new EgressError('private_destination', 'https://a.test'), 'config', 'egress_private_destination'],
    [
      new Error("Server's protocol version is not supported: 2026-07-28"),
      'protocol',
      'unsupported_protocol_version',
    ],
    [systemError('ECONNREFUSED'), 'transient', 'network_unavailable'],
    [systemError('ENOENT'), 'config', 'not_runnable'],
    [
      Object.assign(new Error('x'), { failureClass: 'config', reason: 'stdio_not_allowed' }),
      'config',
      'stdio_not_allowed',
    ],
    [new Error('something else'), 'fatal', 'unexpected_failure'],
    ['a string', 'fatal', 'unexpected_failure'],
  ])('%p is %s (%s), without its text', (error, failureClass, reason) => {
    expect(classifyFailure(error)).toEqual({ failureClass, reason });
  });

  it('ignores a failureClass outside the vocabulary', () => {
    expect(classifyFailure(Object.assign(new Error('x'), { failureClass: 'retry-me', reason: 'r' }))).toEqual(
      {
        failureClass: 'fatal',
        reason: 'unexpected_failure',
      },
    );
  });
});

describe('backoffDelayMs', () => {
  const policy = { baseMs: 500, maxMs: 30_000, maxAttempts: 6 };
  it('doubles, is capped, and jitters between half and the whole step', () => {
    expect([1, 2, 3].map((n) => backoffDelayMs(policy, n, () => 0))).toEqual([250, 500, 1_000]);
    expect([1, 2, 3].map((n) => backoffDelayMs(policy, n, () => 1))).toEqual([500, 1_000, 2_000]);
    expect(backoffDelayMs(policy, 20, () => 1)).toBe(30_000);
    expect(backoffDelayMs(policy, 20, () => 0)).toBe(15_000);
    // A random source out of [0, 1] cannot stretch the bound.
    expect(backoffDelayMs(policy, 1, () => 7)).toBe(500);
  });
});
