import { readStartupTimeoutMs } from '@gatehouse/catalog';
import {
  admittedTransportV1,
  type AdmittedHttpTransport,
  type AdmittedStdioTransport,
} from '@gatehouse/contracts';
import {
  Client,
  LATEST_PROTOCOL_VERSION,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type Transport,
} from '@modelcontextprotocol/client';
import type { Authenticator } from '../auth/authenticator.js';
import {
  createHeaderHelperAuthenticator,
  DEFAULT_HELPER_MAX_OUTPUT_BYTES,
  DEFAULT_HELPER_TIMEOUT_MS,
} from '../auth/header-helper-authenticator.js';
import { createLeaseTokenAuthenticator, type FreshAccessToken } from '../auth/lease-token-authenticator.js';
import { childEnvironment } from '../stdio/child-environment.js';
import { childRunAs, type RunAsOptions } from '../stdio/child-run-as.js';
import { createPrivateHome } from '../stdio/private-home.js';
import { isCwdWritableBy } from '../stdio/writable-cwd.guard.js';
import {
  ProcessGroupStdioTransport,
  type ProcessGroupObserver,
} from '../stdio/process-group-stdio-transport.js';
import { checkSpawnAuthority, type SpawnRefusalReason } from '../stdio/spawn-authority.guard.js';
import { CallHeaderBinding } from '../transport/call-headers-binding.js';
import { createHttpTransport } from '../transport/http-transport-factory.js';
import type { RequestHeaderHook } from '../transport/mcp-fetch.js';
import { DEFAULT_RECEIVE_CAP_BYTES, isMcpTransportError } from '../transport/transport-error.js';
import { AdmittedSession } from './admitted-session.js';
import {
  acceptedEra,
  modernVersionsRefused,
  negotiationFor,
  transportErrorIn,
  type Negotiation,
} from './protocol-negotiation.js';

// The one way libs/mcp-client connects: admit-then-construct. The transport is built only from an admitted
// description (what a lease carries), after its checks pass: for stdio, the activation recheck and the
// spawn-time authority check (lexical, then real paths) run immediately before spawning; for http, the pinned
// egress fetch. The handshake runs under the server's startup bound. Every outcome a caller must act on is a
// typed failure naming the server (and the origin for http), never a thrown opaque error. The protocol era is
// negotiated per transport (protocol-negotiation.ts): http probes for 2026-07-28 and falls back to a 2025-era
// `initialize`; stdio starts with `initialize` and spawns once more, probing, only for a server that refused it
// naming 2026-era versions only.

export type ConnectFailureReason =
  | 'invalid_description'
  | 'startup_timeout_invalid'
  | 'no_longer_admitted'
  | SpawnRefusalReason
  | 'spawn_failed'
  | 'startup_timeout'
  | 'protocol_version_refused'
  | 'principal_header_collision'
  | 'run_as_required'
  | 'cwd_writable'
  | 'auth_refused'
  | 'authenticator_failed'
  | 'egress_failed'
  | 'connection_failed';

/** How a supervisor should treat it: only `transient` may be retried. */
export type ConnectFailureClass = 'transient' | 'auth' | 'protocol' | 'config' | 'fatal';

export interface ConnectFailure {
  readonly ok: false;
  readonly reason: ConnectFailureReason;
  readonly failureClass: ConnectFailureClass;
  readonly server: string;
  /** `scheme://host:port` for http, `stdio:<server>` for stdio; null before a transport existed. */
  readonly origin: string | null;
  /**
   * A stable code beside the reason (the egress refusal, the helper's refusal), or with `env_key_not_allowed`
   * the env NAME refused; never a value.
   */
  readonly detail: string | null;
}

export type ConnectResult = { readonly ok: true; readonly session: AdmittedSession } | ConnectFailure;

export interface ConnectOptions extends RunAsOptions {
  /** The server's name: what failures and the session report. */
  readonly serverName: string;
  /** Our client identity in `initialize`. */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The startup bound when the description has none (the worker's configured default). */
  readonly defaultStartupTimeoutMs: number;
  /** The operator's PATH for children (stdio servers and header helpers). */
  readonly searchPath: string;
  /** Pool config: header helpers may run here at all. */
  readonly headerHelpersAllowed?: boolean;
  /**
   * The host's authenticator for this server; a description's header helper, or the access token its lease
   * carries (OAuth), takes its place.
   */
  readonly authenticator?: Authenticator | null;
  /**
   * For a lease that carries an access token: a fresh lease's token after the server refused this one (401),
   * asked at most once per connection with the refused token's digest; null when none may be had. Absent: the
   * refusal stands.
   */
  readonly freshAccessToken?: FreshAccessToken | null;
  /** Per-request headers decided from each request's body (trace context). */
  readonly requestHeaders?: RequestHeaderHook | null;
  /** Bytes one received message may have before anything parses it (default 8 MiB). */
  readonly receiveCapBytes?: number;
  /** The pinned fetch's clock for one HTTP request (admission, connect, the response head). Default 30 s. */
  readonly requestTimeoutMs?: number;
  /** Longest silence an open HTTP body (a standalone SSE stream) may keep. Default 5 minutes. */
  readonly streamIdleTimeoutMs?: number;
  /** How long closing a child waits before signalling its group, and again after TERM. Default 2 s. */
  readonly closeGraceMs?: number;
  /** Rechecked immediately before spawning: the lease is still held and unrevoked. */
  readonly stillAdmitted?: () => boolean | Promise<boolean>;
  /** Told of each child's process group while it is open, stdio servers and header helpers (the worker's reaper). */
  readonly processGroups?: ProcessGroupObserver | null;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000;
const DEFAULT_CLOSE_GRACE_MS = 2_000;

const CLASS_OF: Record<ConnectFailureReason, ConnectFailureClass> = {
  invalid_description: 'config',
  startup_timeout_invalid: 'config',
  no_longer_admitted: 'config',
  stdio_not_allowed_on_pool: 'config',
  nul_in_launch: 'config',
  command_not_allowed: 'config',
  command_outside_ceiling: 'config',
  env_key_not_allowed: 'config',
  cwd_outside_allowed_roots: 'config',
  no_allowed_root: 'config',
  cwd_not_a_directory: 'config',
  cwd_escapes_root: 'config',
  principal_header_collision: 'config',
  run_as_required: 'config',
  cwd_writable: 'config',
  spawn_failed: 'fatal',
  startup_timeout: 'transient',
  protocol_version_refused: 'protocol',
  auth_refused: 'auth',
  authenticator_failed: 'auth',
  egress_failed: 'transient',
  connection_failed: 'transient',
};

function failure(
  reason: ConnectFailureReason,
  server: string,
  origin: string | null,
  detail: string | null = null,
): ConnectFailure {
  // An egress refusal of the destination itself is configuration, not a passing fault.
  const failureClass =
    reason === 'egress_failed' && detail !== null && !['timeout', 'connection_failed'].includes(detail)
      ? 'config'
      : CLASS_OF[reason];
  return { ok: false, reason, failureClass, server, origin, detail };
}

export async function connectAdmitted(description: unknown, options: ConnectOptions): Promise<ConnectResult> {
  const server = options.serverName;
  // The startup bound first, by its own strict reader: an out-of-range value refuses this server at its dial.
  const declaredTimeout =
    typeof description === 'object' && description !== null && 'startupTimeoutMs' in description
      ? (description as { startupTimeoutMs: unknown }).startupTimeoutMs
      : undefined;
  const timeoutRead = readStartupTimeoutMs(declaredTimeout ?? undefined);
  if (!timeoutRead.ok) return failure('startup_timeout_invalid', server, null, timeoutRead.reason);
  const parsed = admittedTransportV1.safeParse(description);
  if (!parsed.success) return failure('invalid_description', server, null);
  const admitted = parsed.data;
  const startupTimeoutMs = timeoutRead.value ?? options.defaultStartupTimeoutMs;
  const receiveCapBytes = options.receiveCapBytes ?? DEFAULT_RECEIVE_CAP_BYTES;

  const elicitation = admitted.elicitation === true;
  const startedAt = Date.now();
  if (admitted.kind === 'http') {
    const built = buildHttp(admitted, options, receiveCapBytes);
    if (!built.ok) return built;
    return handshake(
      built,
      'http',
      negotiationFor('http'),
      startedAt,
      startupTimeoutMs,
      options,
      elicitation,
    );
  }
  const built = await buildStdio(admitted, options, receiveCapBytes);
  if (!built.ok) return built;
  const legacyFirst = await handshake(
    built,
    'stdio',
    negotiationFor('stdio'),
    startedAt,
    startupTimeoutMs,
    options,
    elicitation,
  );
  if (legacyFirst.ok || !('modernOnly' in legacyFirst) || legacyFirst.modernOnly !== true) return legacyFirst;
  // A 2026-era-only child refused `initialize` (and was closed): a fresh one, this time probed first, under
  // what is left of the same startup bound and after every check again.
  const rebuilt = await buildStdio(admitted, options, receiveCapBytes);
  if (!rebuilt.ok) return rebuilt;
  return handshake(
    rebuilt,
    'stdio',
    negotiationFor('stdio', { modernOnly: true }),
    startedAt,
    startupTimeoutMs,
    options,
    elicitation,
  );
}

type Built =
  | {
      readonly ok: true;
      readonly transport: Transport;
      readonly origin: string;
      readonly release: () => Promise<void>;
      /** Per-call headers (trace context), for an http server the tenant listed for them; else null. */
      readonly callHeaders: CallHeaderBinding | null;
    }
  | ConnectFailure;

async function buildStdio(
  admitted: AdmittedStdioTransport,
  options: ConnectOptions,
  receiveCapBytes: number,
): Promise<Built> {
  const server = options.serverName;
  const origin = `stdio:${server}`;
  if (options.stillAdmitted !== undefined && !(await options.stillAdmitted())) {
    return failure('no_longer_admitted', server, origin);
  }
  const place = await checkSpawnAuthority(
    { argv: [admitted.command, ...admitted.args], cwd: admitted.cwd, envKeys: Object.keys(admitted.env) },
    admitted.authority,
  );
  if (!place.ok) {
    return failure(place.reason, server, origin, place.reason === 'env_key_not_allowed' ? place.key : null);
  }
  const runAs = childRunAs(admitted.authority.runAs, options);
  if (!runAs.ok) return failure(runAs.reason, server, origin);
  if (
    runAs.runAs !== null &&
    (await isCwdWritableBy(place.cwd, admitted.authority.allowedRoots, runAs.runAs))
  )
    return failure('cwd_writable', server, origin);
  const home = await createPrivateHome(runAs.runAs).catch(() => null);
  if (home === null) return failure('spawn_failed', server, origin, 'private_home');
  const transport = new ProcessGroupStdioTransport({
    command: admitted.command,
    args: admitted.args,
    // Env VALUES are read only now, after the authority passed.
    env: childEnvironment({ searchPath: options.searchPath, home: home.path, env: admitted.env }),
    cwd: place.cwd,
    runAs: runAs.runAs,
    origin,
    receiveCapBytes,
    closeGraceMs: options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS,
    groups: options.processGroups ?? null,
  });
  return { ok: true, transport, origin, release: home.remove, callHeaders: null };
}

function buildHttp(admitted: AdmittedHttpTransport, options: ConnectOptions, receiveCapBytes: number): Built {
  // Two writers of the principal's header leave the server guessing which one is the principal (a static
  // `admin` beside it): the decoder refuses such a definition, and the dial refuses such a description too.
  const principal = admitted.principalHeader?.name.toLowerCase();
  if (
    principal !== undefined &&
    Object.keys(admitted.headers).some((name) => name.toLowerCase() === principal)
  )
    return failure('principal_header_collision', options.serverName, admitted.origin);
  const helperRunAs =
    admitted.headersHelper === null ? null : childRunAs(admitted.headersHelper.authority.runAs, options);
  if (helperRunAs !== null && !helperRunAs.ok)
    return failure(helperRunAs.reason, options.serverName, admitted.origin);
  const authenticator =
    admitted.oauth !== undefined
      ? createLeaseTokenAuthenticator({
          accessToken: admitted.oauth.accessToken,
          freshAccessToken: options.freshAccessToken ?? null,
        })
      : admitted.headersHelper === null
        ? (options.authenticator ?? null)
        : createHeaderHelperAuthenticator({
            argv: admitted.headersHelper.argv,
            authority: admitted.headersHelper.authority,
            helpersAllowed: options.headerHelpersAllowed ?? false,
            searchPath: options.searchPath,
            origin: admitted.origin,
            timeoutMs: DEFAULT_HELPER_TIMEOUT_MS,
            maxOutputBytes: DEFAULT_HELPER_MAX_OUTPUT_BYTES,
            runAs: helperRunAs?.runAs ?? null,
            groups: options.processGroups ?? null,
          });
  // A call's own headers reach only an origin the lease says the tenant listed (decision 0106).
  const callHeaders = admitted.traceContext === true ? new CallHeaderBinding() : null;
  const { transport, origin, release } = createHttpTransport(admitted, {
    authenticator,
    requestHeaders: withCallHeaders(options.requestHeaders ?? null, callHeaders),
    receiveCapBytes,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    streamIdleTimeoutMs: options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  });
  return { ok: true, transport, origin, release, callHeaders };
}

function withCallHeaders(
  hook: RequestHeaderHook | null,
  callHeaders: CallHeaderBinding | null,
): RequestHeaderHook | null {
  if (callHeaders === null) return hook;
  if (hook === null) return callHeaders.hook;
  return (request) => ({ ...hook(request), ...callHeaders.hook(request) });
}

/** A handshake's failure, and whether it was a refusal of `initialize` that named 2026-era versions only. */
type HandshakeResult = ConnectResult | (ConnectFailure & { readonly modernOnly?: boolean });

async function handshake(
  built: Extract<Built, { ok: true }>,
  kind: 'http' | 'stdio',
  negotiation: Negotiation,
  startedAt: number,
  startupTimeoutMs: number,
  options: ConnectOptions,
  elicitation: boolean,
): Promise<HandshakeResult> {
  const server = options.serverName;
  const { transport, origin } = built;
  const closeAll = async (): Promise<void> => {
    await client.close().catch(() => undefined);
    await built.release().catch(() => undefined);
  };
  const timeLeft = Math.max(1, startedAt + startupTimeoutMs - Date.now());
  // Elicitation is declared only to a server whose definition opted in (form mode: a url is a phishing surface).
  // On a 2026-era connection the server asks for it inside a result (input_required): the SDK answers through the
  // same `elicitation/create` handler and retries the call, so the relay is one path for both eras.
  const client = new Client(
    { name: options.clientInfo.name, version: options.clientInfo.version },
    {
      capabilities: elicitation ? { elicitation: { form: {} } } : {},
      versionNegotiation: negotiation.versionNegotiation,
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeLeft);
  });
  try {
    const outcome = await Promise.race([
      client.connect(transport, { timeout: timeLeft }).then(() => 'connected' as const),
      deadline,
    ]);
    if (outcome === 'timeout') {
      await closeAll();
      return failure('startup_timeout', server, origin);
    }
  } catch (error) {
    await closeAll();
    const refused = connectFailureOf(error, server, origin);
    return negotiation.mayRetryModern && modernVersionsRefused(error)
      ? { ...refused, modernOnly: true }
      : refused;
  } finally {
    clearTimeout(timer);
  }
  if (built.callHeaders !== null && client.transport !== undefined) built.callHeaders.watch(client.transport);
  const accepted = acceptedEra(client);
  if (accepted === null) {
    await closeAll();
    return failure('protocol_version_refused', server, origin);
  }
  return {
    ok: true,
    session: new AdmittedSession({
      client,
      transportKind: kind,
      serverName: server,
      origin,
      protocolVersion: accepted.protocolVersion,
      protocolEra: accepted.era,
      serverInfo: accepted.serverInfo,
      startupDeadline: startedAt + startupTimeoutMs,
      startupTimeoutMs,
      release: built.release,
      callHeaders: built.callHeaders,
      elicitation,
    }),
  };
}

/** The SDK's words for a refused version: its own check, a JSON-RPC error naming versions, or an HTTP 400 saying so. */
const VERSION_REFUSAL = /protocol version/i;

function connectFailureOf(thrown: unknown, server: string, origin: string): ConnectFailure {
  // The version probe wraps what our transport threw (a refused credential, an egress refusal) in its own error.
  const error = transportErrorIn(thrown) ?? thrown;
  if (isMcpTransportError(error)) {
    switch (error.reason) {
      case 'auth_refused':
      case 'authenticator_failed':
      case 'egress_failed':
      case 'spawn_failed':
        return failure(error.reason, server, origin, error.detail);
      case 'message_too_large':
      case 'child_exited':
      case 'not_connected':
      case 'send_backlog':
        return failure('connection_failed', server, origin, error.reason);
      default: {
        const unreachable: never = error.reason;
        throw new Error(`unknown transport failure ${String(unreachable)}`);
      }
    }
  }
  if (error instanceof SdkHttpError) {
    if (
      error.code === SdkErrorCode.ClientHttpAuthentication ||
      error.code === SdkErrorCode.ClientHttpForbidden
    )
      return failure('auth_refused', server, origin);
    const body = typeof error.data.text === 'string' ? error.data.text : '';
    if (VERSION_REFUSAL.test(error.message) || VERSION_REFUSAL.test(body))
      return failure('protocol_version_refused', server, origin, LATEST_PROTOCOL_VERSION);
    return failure('connection_failed', server, origin);
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return failure('startup_timeout', server, origin);
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed)
    return failure('protocol_version_refused', server, origin, LATEST_PROTOCOL_VERSION);
  if (modernVersionsRefused(error))
    return failure('protocol_version_refused', server, origin, LATEST_PROTOCOL_VERSION);
  const message = error instanceof Error ? error.message : '';
  if (VERSION_REFUSAL.test(message))
    return failure('protocol_version_refused', server, origin, LATEST_PROTOCOL_VERSION);
  return failure('connection_failed', server, origin);
}
