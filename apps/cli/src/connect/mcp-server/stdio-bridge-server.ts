import type { Readable, Writable } from 'node:stream';
import { classifyFailure, type AdmittedSession } from '@gatehouse/mcp-client';
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  isJSONRPCNotification,
  type HandlerResultTypeMap,
  type RequestTypeMap,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { GatewayUpstream } from '../gateway-upstream';

// The MCP server side of `gatehouse connect` (the CLI's one SDK server adapter, decision 0115): a stdio server
// that forwards every request it serves to the gateway session, as it is. The gateway is the one that decides:
// nothing is filtered, renamed or cached here. Cancellations travel as the SDK carries them (the downstream
// request's signal aborts the upstream request, which sends notifications/cancelled), progress is relayed under
// the downstream's own progress token, and the gateway's list_changed notifications are sent on (and all three
// after a reconnect, since what is listed may have changed meanwhile).
//
// Progress is read off the upstream transport ahead of the SDK's Protocol, under tokens of our own: the Protocol
// runs a notification's handler a microtask after reading it but settles a response at once, so progress read in
// the same chunk as the result would come after it or be dropped (libs/mcp-client's CallProgressRelay does the
// same for the supervisor). Each relayed progress is written before the call's result is.

export interface StdioBridgeOptions {
  readonly upstream: GatewayUpstream;
  /** The first session: its capabilities are the bridge's. */
  readonly first: AdmittedSession;
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** A single request's bound. */
  readonly requestTimeoutMs: number;
  readonly version: string;
}

/** What the downstream is offered: what the gateway offers, list_changed always (a reconnect may change lists). */
function bridgedCapabilities(upstream: ServerCapabilities | undefined): ServerCapabilities {
  const capabilities: ServerCapabilities = {};
  if (upstream?.tools !== undefined) capabilities.tools = { listChanged: true };
  if (upstream?.prompts !== undefined) capabilities.prompts = { listChanged: true };
  if (upstream?.resources !== undefined) capabilities.resources = { listChanged: true };
  if (upstream?.completions !== undefined) capabilities.completions = {};
  return capabilities;
}

/** What the gateway answered, or a request that ran out of time: the connection itself is still there. */
const ANSWERED = new Set([
  'request_timeout',
  'server_internal_error',
  'server_refused_request',
  'malformed_message',
  'unsupported_protocol_version',
]);

/** A request failed because the connection to the gateway went away (closed, never open, the transport failed). */
function connectionLost(error: unknown): boolean {
  return !ANSWERED.has(classifyFailure(error).reason);
}

/** The requests the bridge forwards: each is served only when the first session's gateway offers its capability. */
type BridgedMethod =
  | 'tools/list'
  | 'tools/call'
  | 'prompts/list'
  | 'prompts/get'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'completion/complete';

const PROGRESS = 'notifications/progress';

export class StdioBridge {
  private readonly server: Server;
  private readonly progressListeners = new Map<string, (params: Record<string, unknown>) => void>();
  private progressTokens = 0;
  private readonly capabilities: ServerCapabilities;
  private readonly done: Promise<void>;
  private finish: () => void = () => undefined;

  constructor(private readonly options: StdioBridgeOptions) {
    this.capabilities = bridgedCapabilities(options.first.serverCapabilities());
    this.server = new Server(
      { name: 'gatehouse-connect', version: options.version },
      { capabilities: this.capabilities },
    );
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
    this.register();
  }

  /** Hang the notification relays on a (new) session; after a reconnect, tell the client its lists may differ. */
  attach(session: AdmittedSession, reconnected: boolean): void {
    const client = session.client;
    const transport = client.transport;
    if (transport !== undefined) {
      const protocol = transport.onmessage;
      transport.onmessage = (message, extra) => {
        if (isJSONRPCNotification(message) && message.method === PROGRESS) {
          const token: unknown = message.params?.['progressToken'];
          const listener = typeof token === 'string' ? this.progressListeners.get(token) : undefined;
          if (listener !== undefined) return listener(message.params ?? {});
        }
        protocol?.(message, extra);
      };
    }
    if (this.capabilities.tools !== undefined) {
      client.setNotificationHandler('notifications/tools/list_changed', () =>
        this.server.sendToolListChanged(),
      );
    }
    if (this.capabilities.prompts !== undefined) {
      client.setNotificationHandler('notifications/prompts/list_changed', () =>
        this.server.sendPromptListChanged(),
      );
    }
    if (this.capabilities.resources !== undefined) {
      client.setNotificationHandler('notifications/resources/list_changed', () =>
        this.server.sendResourceListChanged(),
      );
    }
    if (reconnected) void this.announceAllChanged();
  }

  /**
   * Serves stdio until the client closes it (stdin ends or closes: the SDK's stdio transport closes itself then,
   * in-flight requests aborted); resolves then.
   */
  async serve(): Promise<void> {
    const transport = new StdioServerTransport(this.options.stdin, this.options.stdout);
    this.server.onclose = () => this.finish();
    await this.server.connect(transport);
    await this.done;
    await this.options.upstream.close();
  }

  private async announceAllChanged(): Promise<void> {
    try {
      if (this.capabilities.tools !== undefined) await this.server.sendToolListChanged();
      if (this.capabilities.prompts !== undefined) await this.server.sendPromptListChanged();
      if (this.capabilities.resources !== undefined) await this.server.sendResourceListChanged();
    } catch {
      // The downstream is gone: its close ends the bridge.
    }
  }

  private register(): void {
    if (this.capabilities.tools !== undefined) {
      this.serveForwarded('tools/list', true);
      this.serveForwarded('tools/call', false);
    }
    if (this.capabilities.prompts !== undefined) {
      this.serveForwarded('prompts/list', true);
      this.serveForwarded('prompts/get', true);
    }
    if (this.capabilities.resources !== undefined) {
      this.serveForwarded('resources/list', true);
      this.serveForwarded('resources/templates/list', true);
      this.serveForwarded('resources/read', true);
    }
    if (this.capabilities.completions !== undefined) this.serveForwarded('completion/complete', true);
  }

  /** `repeatable`: the request changes nothing upstream, so it may be sent again on a new session. */
  private serveForwarded<M extends BridgedMethod>(method: M, repeatable: boolean): void {
    // The SDK's overloads cannot pick one signature for a method named by a type parameter: this is the spec-method
    // overload, whose handler receives the request as validated for that method.
    const register = this.server.setRequestHandler.bind(this.server) as (
      method: M,
      handler: (request: RequestTypeMap[M], ctx: ServerContext) => Promise<HandlerResultTypeMap[M]>,
    ) => void;
    register(method, (request, ctx) => this.forward(request, ctx, repeatable));
  }

  /**
   * One request, sent upstream as it came (its progress token replaced by the upstream's own and relayed back).
   * A lost connection is replaced; a request that changes nothing is then sent once more, a tool call is not (it
   * may have run): the client gets an error saying so.
   */
  private async forward<M extends BridgedMethod>(
    request: RequestTypeMap[M],
    ctx: ServerContext,
    repeatable: boolean,
  ): Promise<HandlerResultTypeMap[M]> {
    const { _meta: _requestMeta, ...params } = (request.params ?? {}) as Record<string, unknown>;
    const { progressToken, ...otherMeta } = ctx.mcpReq._meta ?? {};
    // The downstream asked for progress: the upstream call gets a token of ours, relayed back under theirs.
    let writes: Promise<void> = Promise.resolve();
    const ownToken =
      progressToken === undefined ? undefined : `gatehouse-connect-${(this.progressTokens += 1)}`;
    if (ownToken !== undefined) {
      this.progressListeners.set(ownToken, (progress) => {
        const { progressToken: _upstreamToken, ...rest } = progress;
        writes = writes.then(() =>
          ctx.mcpReq.notify({ method: PROGRESS, params: { ...rest, progressToken } }).catch(() => undefined),
        );
      });
    }
    const upstreamMeta = { ...otherMeta, ...(ownToken !== undefined ? { progressToken: ownToken } : {}) };
    const upstreamRequest = {
      method: request.method,
      params: { ...params, ...(Object.keys(upstreamMeta).length > 0 ? { _meta: upstreamMeta } : {}) },
    };
    const send = async (session: AdmittedSession) => {
      // The upstream client validates the answer with the SDK's result schema for this method; the cast only
      // names it as the server's result type for the same method.
      const result = (await session.client.request(upstreamRequest, {
        signal: ctx.mcpReq.signal,
        timeout: this.options.requestTimeoutMs,
      })) as HandlerResultTypeMap[M];
      await writes;
      return result;
    };
    try {
      return await this.options.upstream.track(() => this.sendOnce(send, ctx.mcpReq.signal, repeatable));
    } finally {
      if (ownToken !== undefined) this.progressListeners.delete(ownToken);
    }
  }

  private async sendOnce<T>(
    send: (session: AdmittedSession) => Promise<T>,
    signal: AbortSignal,
    repeatable: boolean,
  ): Promise<T> {
    const session = await this.sessionOrError();
    try {
      return await send(session);
    } catch (error) {
      if (signal.aborted || !connectionLost(error)) throw error;
      this.options.upstream.broken(session);
      if (!repeatable) {
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          'the connection to the gateway was lost during the call; it may or may not have run (reconnecting)',
        );
      }
      return send(await this.sessionOrError());
    }
  }

  private async sessionOrError(): Promise<AdmittedSession> {
    try {
      return await this.options.upstream.session();
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `gateway unavailable: ${error instanceof Error ? error.message : 'cannot connect'}`,
      );
    }
  }
}
