import {
  type Client,
  type CompleteRequest,
  type CompleteResult,
  type ElicitResult,
  type GetPromptResult,
  type ProtocolEra,
  type ReadResourceResult,
} from '@modelcontextprotocol/client';
import {
  discoverCatalog,
  type DiscoveredTool,
  type Discovery,
  type DiscoveryOptions,
} from '../discovery/catalog-discovery';
import type { ListingClient } from '../discovery/listing-client';
import { admitToolResult, withheldResult } from '../results/result-cap.policy';
import { legacyShapedResult, type UpstreamToolResult } from '../results/structured-content';
import { checkArguments, type ArgumentProblem } from '../schema/narrowed-schema.guard';
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.policy';
import { sameIdentity, type CatalogIdentity } from './catalog-identity';
import { CallProgressRelay, type CallProgress } from './call-progress-relay';
import { isMcpTransportError } from '../transport/transport-error';
import { ElicitationRefusedError } from './elicitation-refused-error';
import { classifyFailure, type ClassifiedFailure } from './failure-class';
import {
  DEFAULT_NOTIFICATION_BUDGET,
  NotificationBudget,
  type NotificationBudgetOptions,
} from './notification-budget';
import { gateNotifications, type NotificationDropReason } from './notification-gate';
import type { CallSendOptions } from '../transport/call-headers-binding';

// One upstream server's connection and catalog lifecycle. Connects through the connector it is given (the
// admitted transports of this lib), retries only transient failures under bounded backoff with jitter, discovers
// the catalog, refreshes it on the protocol's own list_changed notifications (a failed refresh keeps the old
// catalog, marked stale), binds it to (server, negotiated protocol version, server version) and drops it when a
// reconnect reports another identity. A tool call is made once: a failed call is reported, never replayed. No
// other server notification is delivered to anyone.

/** The part of a connected SDK client the supervisor uses. */
export type SupervisedClient = ListingClient &
  Pick<
    Client,
    | 'callTool'
    | 'complete'
    | 'getPrompt'
    | 'readResource'
    | 'setNotificationHandler'
    | 'setRequestHandler'
    | 'getServerVersion'
    | 'listen'
    | 'transport'
  > & {
    onclose?: () => void;
    fallbackNotificationHandler?: Client['fallbackNotificationHandler'];
  };

export interface SupervisedConnection {
  readonly client: SupervisedClient;
  /** The protocol version the handshake settled on. */
  readonly protocolVersion: string;
  /** The era it belongs to (2025-era `initialize`, or 2026-07-28 and later); absent: the connector does not say. */
  readonly protocolEra?: ProtocolEra;
  readonly close: () => Promise<void>;
  /**
   * The bound on this connection's initial listing, one walk over every declared list and page (the server's
   * startupTimeoutMs); a refresh after list_changed is not under it. Absent: only `discovery.walkTimeoutMs`.
   */
  readonly initialListingTimeoutMs?: number;
  /**
   * Runs one tool call for the transport: an abort or timeout on a stdio child closes the child (the SDK has no
   * cancellation acknowledgement). Absent: the call runs as it is.
   */
  readonly guard?: <T>(request: () => Promise<T>, signal?: AbortSignal) => Promise<T>;
  /**
   * Starts one tool call with headers of its own (trace context): sent on that call's requests only, where the
   * server may receive them; `start` hands the options it is given to the SDK client's `callTool`. Absent: the
   * headers are dropped.
   */
  readonly withCallHeaders?: <T>(
    headers: Readonly<Record<string, string>>,
    start: (options: CallSendOptions) => Promise<T>,
  ) => Promise<T>;
  /** Elicitation was declared to this server (its definition opted in): its requests are relayed to a call. */
  readonly elicitation?: boolean;
}

/**
 * Who made one tool call, for the server's elicitation during it (decision 0107). An `elicitation/create` is relayed
 * only while every call in flight on the connection has the same `scope` (the gateway: the session that made
 * them), so it can only reach the one that made the call; `relay` is null when that caller cannot answer one.
 */
export interface CallElicitation {
  readonly scope: string;
  readonly relay: ElicitationRelay | null;
}

/** Relays the server's `elicitation/create` params (form mode, as the SDK admitted them); answers its result. */
export type ElicitationRelay = (
  params: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
) => Promise<Readonly<Record<string, unknown>>>;

/** Why an upstream's elicitation was refused (the JSON-RPC error's `data.reason` it is answered with). */
export type ElicitationRefusal =
  'elicitation_outside_call' | 'elicitation_ambiguous' | 'elicitation_unsupported';

export type ConnectOutcome =
  | { readonly ok: true; readonly connection: SupervisedConnection }
  | { readonly ok: false; readonly failure: ClassifiedFailure };

/** Connects once. May also throw: what it throws is classified by {@link classifyFailure}. */
export type Connector = (signal: AbortSignal) => Promise<ConnectOutcome>;

export interface SupervisedCatalog {
  readonly identity: CatalogIdentity;
  readonly discovery: Discovery;
  /** Every declared list drained (a partial catalog never says so). */
  readonly complete: boolean;
  /** A refresh after the server said its lists changed did not complete: this is the catalog from before. */
  readonly stale: boolean;
  /** Bumped whenever the catalog is replaced. */
  readonly generation: number;
}

export type SupervisorStatus = 'idle' | 'connecting' | 'ready' | 'reconnecting' | 'failed' | 'closed';

export interface SupervisorFailure extends ClassifiedFailure {
  /** Connection attempts made before it surfaced. */
  readonly attempts: number;
}

export type SupervisorEvent =
  | { readonly type: 'status'; readonly status: SupervisorStatus; readonly failure?: SupervisorFailure }
  | {
      readonly type: 'catalog';
      readonly change: 'discovered' | 'refreshed' | 'stale' | 'invalidated';
      readonly catalog?: SupervisedCatalog;
    };

export type ToolCallOutcome =
  | {
      readonly ok: true;
      readonly result: UpstreamToolResult;
      /** Set when the result was over its cap and withheld (the result is then a tool error naming sizes). */
      readonly withheld?: { readonly chars: number; readonly maxChars: number };
    }
  | { readonly ok: false; readonly reason: 'not_connected' | 'unknown_tool' }
  | {
      readonly ok: false;
      readonly reason: 'invalid_arguments';
      readonly problem: ArgumentProblem;
      readonly path: string;
    }
  | { readonly ok: false; readonly reason: 'call_failed'; readonly failure: ClassifiedFailure };

/**
 * A prompts/get or resources/read made once on the live connection. Which names and URIs a caller may ask for is
 * the host's policy (its catalog), not the supervisor's: the upstream answers or refuses, and a refusal or a
 * failure on the way is classified, never relayed with the upstream's words.
 */
export type UpstreamReadOutcome<T> =
  | { readonly ok: true; readonly result: T }
  | { readonly ok: false; readonly reason: 'not_connected' }
  | { readonly ok: false; readonly reason: 'call_failed'; readonly failure: ClassifiedFailure };

export type PromptOutcome = UpstreamReadOutcome<GetPromptResult>;
export type ResourceReadOutcome = UpstreamReadOutcome<ReadResourceResult>;
/** A completion/complete, or `not_offered`: the server did not declare `completions`, so it was not asked. */
export type CompletionOutcome =
  UpstreamReadOutcome<CompleteResult> | { readonly ok: false; readonly reason: 'not_offered' };

export interface SupervisorOptions {
  /** Gatehouse's id of the server (part of the catalog identity). */
  readonly serverId: string;
  readonly connect: Connector;
  readonly discovery?: DiscoveryOptions;
  readonly backoff?: BackoffPolicy;
  /** Per tool call (default 60 s). */
  readonly callTimeoutMs?: number;
  readonly onEvent?: (event: SupervisorEvent) => void;
  /**
   * Told the method of every server notification that is dropped, and why: nothing relays it (anything but
   * list_changed and the progress of a call in flight), past the connection's budget, or past its call's progress
   * cap (decision 0130). So a host can count what it never relays; never given the notification's content.
   */
  readonly onDroppedNotification?: (method: string, reason: NotificationDropReason) => void;
  /** This connection's notification budget (default {@link DEFAULT_NOTIFICATION_BUDGET}). */
  readonly notificationBudget?: NotificationBudgetOptions;
  /** Progress notifications one call may relay (default {@link MAX_PROGRESS_PER_CALL}). */
  readonly maxProgressPerCall?: number;
  /** At least this long between two listings of the catalog after list_changed (default 1 s). */
  readonly relistSpacingMs?: number;
  /** Waits out a backoff or a re-list's spacing (injectable so tests await events rather than time). */
  readonly delay?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random?: () => number;
}

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
export const DEFAULT_RELIST_SPACING_MS = 1_000;
/** How often one connection's `subscriptions/listen` stream is opened again after the server ended it. */
export const MAX_LISTEN_REOPENS = 3;

/**
 * A request in flight on the connection. Tool calls carry who made them; a prompts/get or resources/read is `read`
 * (its caller is never asked), so an elicitation while one runs is no tool call's alone and is never relayed.
 */
interface InFlightCall {
  readonly elicitation: CallElicitation | null;
  readonly read?: true;
}

function defaultDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The initial listing's options: the walk bounded by the startup bound too (the tighter of the two). */
function initialListing(
  options: DiscoveryOptions | undefined,
  startupBoundMs: number | undefined,
): DiscoveryOptions | undefined {
  if (startupBoundMs === undefined) return options;
  const configured = options?.walkTimeoutMs;
  const walkTimeoutMs = configured === undefined ? startupBoundMs : Math.min(configured, startupBoundMs);
  return { ...options, walkTimeoutMs };
}

export class ConnectionSupervisor {
  private status: SupervisorStatus = 'idle';
  private failure: SupervisorFailure | undefined;
  private current: SupervisedConnection | undefined;
  private progress: CallProgressRelay | undefined;
  private catalogNow: SupervisedCatalog | undefined;
  private toolsByName = new Map<string, DiscoveredTool>();
  private readonly inFlight = new Set<InFlightCall>();
  private generation = 0;
  private queue: Promise<void> = Promise.resolve();
  private refreshQueued = false;
  /** When the catalog was last listed (discovered or re-listed): re-lists are spaced from it. */
  private listedAt = 0;
  private readonly closing = new AbortController();

  constructor(private readonly options: SupervisorOptions) {}

  /** Connects and discovers (retrying transient failures). Resolves with the state it reached. */
  async start(): Promise<SupervisorStatus> {
    if (this.status === 'idle') await this.enqueue(() => this.establish('connecting'));
    else await this.queue;
    return this.status;
  }

  get state(): { readonly status: SupervisorStatus; readonly failure?: SupervisorFailure } {
    return this.failure ? { status: this.status, failure: this.failure } : { status: this.status };
  }

  get catalog(): SupervisedCatalog | undefined {
    return this.catalogNow;
  }

  /** Waits for the work queued so far (a refresh or a reconnect under way). */
  async settled(): Promise<void> {
    await this.queue;
  }

  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    bounds: {
      readonly signal?: AbortSignal;
      /** The server's progress for THIS call (the SDK correlates it by the call's own progress token). */
      readonly onProgress?: (progress: CallProgress) => void;
      /**
       * Headers of THIS call (the caller's trace context): sent on its `tools/call` POST and its cancellation
       * only, and only to a server the lease says may receive them; dropped otherwise.
       */
      readonly headers?: Readonly<Record<string, string>>;
      /** Who made this call: the server's elicitation during it is relayed there, and only there. */
      readonly elicitation?: CallElicitation;
    } = {},
  ): Promise<ToolCallOutcome> {
    const connection = this.current;
    if (connection === undefined || this.status !== 'ready') return { ok: false, reason: 'not_connected' };
    const tool = this.toolsByName.get(name);
    if (tool === undefined) return { ok: false, reason: 'unknown_tool' };
    const check = checkArguments(tool.inputSchema, args);
    if (!check.ok) return { ok: false, reason: 'invalid_arguments', problem: check.reason, path: check.path };
    // Our own progress token, read ahead of the SDK (call-progress-relay): the SDK's onprogress can lose the last
    // progress to the result it arrived with.
    const tracked =
      bounds.onProgress === undefined || this.progress === undefined
        ? undefined
        : this.progress.track(bounds.onProgress);
    let result: UpstreamToolResult;
    const inFlight: InFlightCall = { elicitation: bounds.elicitation ?? null };
    this.inFlight.add(inFlight);
    try {
      // Made once: whatever happens to it is reported, and a reconnect never sends it again.
      const send = (sendOptions: CallSendOptions = {}) =>
        connection.client.callTool(
          {
            name,
            arguments: args,
            ...(tracked === undefined ? {} : { _meta: { progressToken: tracked.token } }),
          },
          {
            timeout: this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
            ...(bounds.signal === undefined ? {} : { signal: bounds.signal }),
            ...sendOptions,
          },
        );
      const { headers } = bounds;
      const withHeaders = connection.withCallHeaders;
      const request =
        headers === undefined || withHeaders === undefined ? () => send() : () => withHeaders(headers, send);
      result = legacyShapedResult(
        await (connection.guard === undefined ? request() : connection.guard(request, bounds.signal)),
      );
    } catch (error) {
      return { ok: false, reason: 'call_failed', failure: classifyFailure(error) };
    } finally {
      tracked?.end();
      this.inFlight.delete(inFlight);
    }
    const admission = admitToolResult(result, tool.resultCap);
    if (!admission.ok) {
      return {
        ok: true,
        result: withheldResult(admission),
        withheld: { chars: admission.chars, maxChars: admission.maxChars },
      };
    }
    return { ok: true, result };
  }

  /** prompts/get on the live connection, once, under the call timeout. */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    bounds: { readonly signal?: AbortSignal } = {},
  ): Promise<PromptOutcome> {
    return this.readOnce((client, options) => client.getPrompt({ name, arguments: args }, options), bounds);
  }

  /** resources/read on the live connection, once, under the call timeout. */
  async readResource(
    uri: string,
    bounds: { readonly signal?: AbortSignal } = {},
  ): Promise<ResourceReadOutcome> {
    // Asked of the server every time: the v2 client would otherwise answer from its cache while the server's
    // `ttlMs` hint holds, and a read here is made once on the live connection, never from memory.
    return this.readOnce(
      (client, options) => client.readResource({ uri }, { ...options, cacheMode: 'bypass' }),
      bounds,
    );
  }

  /**
   * completion/complete on the live connection, once, under the call timeout; only to a server that declared
   * `completions` in its handshake (the SDK client would refuse it too, as an error of no class).
   */
  async complete(
    params: CompleteRequest['params'],
    bounds: { readonly signal?: AbortSignal } = {},
  ): Promise<CompletionOutcome> {
    const declared = this.current?.client.getServerCapabilities()?.completions;
    if (this.current !== undefined && this.status === 'ready' && declared === undefined)
      return { ok: false, reason: 'not_offered' };
    return this.readOnce((client, options) => client.complete(params, options), bounds);
  }

  private async readOnce<T>(
    send: (
      client: SupervisedClient,
      options: { readonly timeout: number; readonly signal?: AbortSignal },
    ) => Promise<T>,
    bounds: { readonly signal?: AbortSignal },
  ): Promise<UpstreamReadOutcome<T>> {
    const connection = this.current;
    if (connection === undefined || this.status !== 'ready') return { ok: false, reason: 'not_connected' };
    const options = {
      timeout: this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      ...(bounds.signal === undefined ? {} : { signal: bounds.signal }),
    };
    // In flight like a call (decision 0107): a server's elicitation during it may be for it, not for a call.
    const inFlight: InFlightCall = { elicitation: null, read: true };
    this.inFlight.add(inFlight);
    try {
      const request = () => send(connection.client, options);
      const result = await (connection.guard === undefined
        ? request()
        : connection.guard(request, bounds.signal));
      return { ok: true, result };
    } catch (error) {
      return { ok: false, reason: 'call_failed', failure: classifyFailure(error) };
    } finally {
      this.inFlight.delete(inFlight);
    }
  }

  async close(): Promise<void> {
    if (this.status === 'closed') return;
    this.closing.abort();
    this.setStatus('closed');
    const connection = this.current;
    this.current = undefined;
    await connection?.close().catch(() => undefined);
    await this.queue;
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work, work);
    return this.queue;
  }

  private emit(event: SupervisorEvent): void {
    this.options.onEvent?.(event);
  }

  private setStatus(status: SupervisorStatus, failure?: SupervisorFailure): void {
    if (this.status === 'closed') return;
    this.status = status;
    this.failure = failure;
    this.emit(failure ? { type: 'status', status, failure } : { type: 'status', status });
  }

  private setCatalog(
    catalog: SupervisedCatalog | undefined,
    change: 'discovered' | 'refreshed' | 'stale' | 'invalidated',
  ) {
    this.catalogNow = catalog;
    this.toolsByName = new Map((catalog?.discovery.tools ?? []).map((t) => [t.name, t]));
    this.emit(catalog ? { type: 'catalog', change, catalog } : { type: 'catalog', change });
  }

  /** Waits out the backoff before retry number `retry` (cut short by close). */
  private async waitBackoff(retry: number): Promise<void> {
    const policy = this.options.backoff ?? DEFAULT_BACKOFF;
    const delay = this.options.delay ?? defaultDelay;
    await delay(backoffDelayMs(policy, retry, this.options.random ?? Math.random), this.closing.signal);
  }

  private async connectWithRetry(): Promise<SupervisedConnection | SupervisorFailure> {
    const policy = this.options.backoff ?? DEFAULT_BACKOFF;
    const random = this.options.random ?? Math.random;
    const delay = this.options.delay ?? defaultDelay;
    for (let attempt = 1; ; attempt += 1) {
      let outcome: ConnectOutcome;
      try {
        outcome = await this.options.connect(this.closing.signal);
      } catch (error) {
        outcome = { ok: false, failure: classifyFailure(error) };
      }
      if (outcome.ok) return outcome.connection;
      const failure = { ...outcome.failure, attempts: attempt };
      if (
        failure.failureClass !== 'transient' ||
        attempt >= policy.maxAttempts ||
        this.closing.signal.aborted
      )
        return failure;
      await delay(backoffDelayMs(policy, attempt, random), this.closing.signal);
      if (this.closing.signal.aborted) return failure;
    }
  }

  private async establish(status: 'connecting' | 'reconnecting', backoffFirst = false): Promise<void> {
    if (this.status === 'closed') return;
    this.setStatus(status);
    if (backoffFirst) await this.waitBackoff(1);
    const connected = await this.connectWithRetry();
    if (!('client' in connected)) {
      this.setStatus('failed', connected);
      return;
    }
    if (this.closing.signal.aborted) {
      // Closed while connecting: this connection is nobody's.
      await connected.close().catch(() => undefined);
      return;
    }
    this.attach(connected);
    const version = connected.client.getServerVersion();
    const identity: CatalogIdentity = {
      serverId: this.options.serverId,
      protocolVersion: connected.protocolVersion,
      ...(connected.protocolEra === undefined ? {} : { protocolEra: connected.protocolEra }),
      serverName: version?.name ?? '',
      serverVersion: version?.version ?? '',
    };
    const previous = this.catalogNow;
    if (previous && !sameIdentity(previous.identity, identity)) this.setCatalog(undefined, 'invalidated');
    this.listedAt = Date.now();
    const discovery = await discoverCatalog(
      connected.client,
      initialListing(this.options.discovery, connected.initialListingTimeoutMs),
    );
    if (this.current !== connected) return;
    this.applyDiscovery(identity, discovery, this.catalogNow === undefined ? 'discovered' : 'refreshed');
    this.setStatus('ready');
    if (connected.protocolEra === 'modern') this.listenForChanges(connected, 0);
  }

  /**
   * On a 2026 connection a server says its lists changed only on a `subscriptions/listen` stream the client opens
   * (there are no unsolicited notifications): opened for the lists the server declared `listChanged` for. What it
   * delivers reaches the notification gate like any notification (one coalesced re-list, the connection's
   * budget). A stream the server ends is opened again, after the re-list spacing, at most
   * {@link MAX_LISTEN_REOPENS} times per connection (a re-list follows each, for what may have been missed); a
   * server that refuses it, or ends it past that, has its catalog refreshed by reconnects and the refresh sweep.
   */
  private listenForChanges(connection: SupervisedConnection, reopened: number): void {
    const declared = connection.client.getServerCapabilities();
    const filter = {
      ...(declared?.tools?.listChanged === true ? { toolsListChanged: true } : {}),
      ...(declared?.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
      ...(declared?.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return;
    void connection.client.listen(filter).then(
      (subscription) => {
        if (this.current !== connection) return void subscription.close().catch(() => undefined);
        void subscription.closed.then(async (how) => {
          if (how === 'local' || this.current !== connection || reopened >= MAX_LISTEN_REOPENS) return;
          const delay = this.options.delay ?? defaultDelay;
          await delay(this.options.relistSpacingMs ?? DEFAULT_RELIST_SPACING_MS, this.closing.signal);
          if (this.current !== connection || this.status === 'closed') return;
          this.scheduleRefresh(connection);
          this.listenForChanges(connection, reopened + 1);
        });
      },
      () => undefined,
    );
  }

  private applyDiscovery(
    identity: CatalogIdentity,
    discovery: Discovery,
    change: 'discovered' | 'refreshed',
  ): void {
    const kept = this.catalogNow;
    if (kept && !discovery.complete) {
      // The server's lists changed (or we reconnected) and the new listing did not complete: keep what we had.
      this.setCatalog({ ...kept, stale: true }, 'stale');
      return;
    }
    this.generation += 1;
    this.setCatalog(
      { identity, discovery, complete: discovery.complete, stale: false, generation: this.generation },
      change,
    );
  }

  private attach(connection: SupervisedConnection): void {
    this.current = connection;
    const client = connection.client;
    const transport = client.transport;
    const dropped = (method: string, reason: NotificationDropReason) =>
      this.options.onDroppedNotification?.(method, reason);
    this.progress =
      transport === undefined
        ? undefined
        : new CallProgressRelay(transport, {
            ...(this.options.maxProgressPerCall === undefined
              ? {}
              : { maxPerCall: this.options.maxProgressPerCall }),
            onDropped: () => dropped('notifications/progress', 'call_cap'),
          });
    // Only the protocol's own list_changed notifications do anything (one coalesced re-list), read ahead of the
    // SDK; every other notification spends the connection's budget, and what nothing relays is dropped.
    if (transport !== undefined)
      gateNotifications(transport, {
        budget: new NotificationBudget(this.options.notificationBudget ?? DEFAULT_NOTIFICATION_BUDGET),
        onListChanged: () => this.scheduleRefresh(connection),
        onDropped: dropped,
      });
    if (connection.elicitation === true) {
      // One handler for both eras: a 2025-era server sends `elicitation/create`; a 2026-era server answers the
      // call with input_required, which the SDK fulfils through this same handler before it retries the call.
      client.setRequestHandler('elicitation/create', async (request, ctx) => {
        const relay = this.elicitationRelay();
        if (typeof relay === 'string') throw new ElicitationRefusedError(relay);
        return (await relay(request.params, ctx.mcpReq.signal)) as ElicitResult;
      });
    }
    client.fallbackNotificationHandler = async (notification) => {
      dropped(notification.method.slice(0, 64), 'not_relayed');
    };
    // A connection its transport failed because the server misbehaved (it stopped reading what we sent it) is
    // re-established only after a backoff wait: a server that does so at once every time is not respawned in a loop.
    let misbehaved = false;
    if (transport !== undefined) {
      const reported = transport.onerror;
      transport.onerror = (error) => {
        if (isMcpTransportError(error) && error.reason === 'send_backlog') misbehaved = true;
        reported?.(error);
      };
    }
    client.onclose = () => {
      if (this.current !== connection) return;
      this.current = undefined;
      if (this.status === 'closed') return;
      void this.enqueue(() => this.establish('reconnecting', misbehaved));
    };
  }

  /** Whose relay a server's elicitation goes to now: the one scope every call in flight has, or why none. */
  private elicitationRelay(): ElicitationRelay | ElicitationRefusal {
    const calls = [...this.inFlight];
    // Nothing but reads (or nothing) in flight: no tool call to relay it to.
    if (calls.every((call) => call.read === true)) return 'elicitation_outside_call';
    const scopes = new Set(calls.map((call) => call.elicitation?.scope ?? null));
    if (scopes.size !== 1 || scopes.has(null)) return 'elicitation_ambiguous';
    const relay = calls.find((call) => call.elicitation?.relay != null)?.elicitation?.relay;
    return relay ?? 'elicitation_unsupported';
  }

  /**
   * One re-list per list_changed burst (decision 0130): while one is pending every further list_changed is folded
   * into it, and a re-list starts no sooner than the spacing after the last listing, so a server that says its
   * lists changed 20,000 times is listed again a few times, not 20,000 (each re-list is a full walk, and the
   * host tells the API and every session it serves).
   */
  private scheduleRefresh(connection: SupervisedConnection): void {
    if (this.refreshQueued) return;
    this.refreshQueued = true;
    const spacing = this.options.relistSpacingMs ?? DEFAULT_RELIST_SPACING_MS;
    const wait = Math.max(0, this.listedAt + spacing - Date.now());
    const delay = this.options.delay ?? defaultDelay;
    void (wait === 0 ? Promise.resolve() : delay(wait, this.closing.signal)).then(() =>
      this.enqueue(async () => {
        this.refreshQueued = false;
        if (this.current !== connection || this.status !== 'ready') return;
        const identity = this.catalogNow?.identity;
        this.listedAt = Date.now();
        const discovery = await discoverCatalog(connection.client, this.options.discovery);
        if (this.current !== connection || identity === undefined) return;
        this.applyDiscovery(identity, discovery, 'refreshed');
      }),
    );
  }
}
