import type { Readable, Writable } from 'node:stream';
import { classifyFailure, type AdmittedSession } from '@gatehouse/mcp-client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  CompleteRequestSchema,
  CompleteResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  McpError,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  isJSONRPCNotification,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
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

/** A failure of the connection (not an answer of the gateway's): the session is dropped and replaced. */
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

type RequestExtra = {
  signal: AbortSignal;
  sendNotification: (notification: {
    method: 'notifications/progress';
    params: Record<string, unknown>;
  }) => Promise<void>;
};

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

  /** Serves stdio until the client closes it (stdin ends); resolves then. */
  async serve(): Promise<void> {
    const transport = new StdioServerTransport(this.options.stdin, this.options.stdout);
    this.server.onclose = () => this.finish();
    this.options.stdin.once('end', () => void this.server.close());
    this.options.stdin.once('close', () => void this.server.close());
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
    const forward = this.forward.bind(this);
    if (this.capabilities.tools !== undefined) {
      this.server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
        forward(request, ListToolsResultSchema, extra, true),
      );
      this.server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
        forward(request, CallToolResultSchema, extra, false),
      );
    }
    if (this.capabilities.prompts !== undefined) {
      this.server.setRequestHandler(ListPromptsRequestSchema, (request, extra) =>
        forward(request, ListPromptsResultSchema, extra, true),
      );
      this.server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
        forward(request, GetPromptResultSchema, extra, true),
      );
    }
    if (this.capabilities.resources !== undefined) {
      this.server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
        forward(request, ListResourcesResultSchema, extra, true),
      );
      this.server.setRequestHandler(ListResourceTemplatesRequestSchema, (request, extra) =>
        forward(request, ListResourceTemplatesResultSchema, extra, true),
      );
      this.server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
        forward(request, ReadResourceResultSchema, extra, true),
      );
    }
    if (this.capabilities.completions !== undefined) {
      this.server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
        forward(request, CompleteResultSchema, extra, true),
      );
    }
  }

  /**
   * One request, sent upstream as it came (its progress token replaced by the upstream's own and relayed back).
   * A lost connection is replaced; a request that changes nothing is then sent once more, a tool call is not (it
   * may have run): the client gets an error saying so.
   */
  private async forward<S extends z.ZodType>(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: S,
    extra: RequestExtra,
    repeatable: boolean,
  ): Promise<z.output<S>> {
    const { _meta: meta, ...params } = (request.params ?? {}) as { _meta?: Record<string, unknown> };
    const { progressToken, ...otherMeta } = meta ?? {};
    // The downstream asked for progress: the upstream call gets a token of ours, relayed back under theirs.
    let writes: Promise<void> = Promise.resolve();
    const ownToken =
      progressToken === undefined ? undefined : `gatehouse-connect-${(this.progressTokens += 1)}`;
    if (ownToken !== undefined) {
      this.progressListeners.set(ownToken, (progress) => {
        const { progressToken: _upstreamToken, ...rest } = progress;
        writes = writes.then(() =>
          extra
            .sendNotification({ method: 'notifications/progress', params: { ...rest, progressToken } })
            .catch(() => undefined),
        );
      });
    }
    const upstreamMeta = { ...otherMeta, ...(ownToken !== undefined ? { progressToken: ownToken } : {}) };
    const upstreamRequest = {
      method: request.method,
      params: { ...params, ...(Object.keys(upstreamMeta).length > 0 ? { _meta: upstreamMeta } : {}) },
    };
    const send = async (session: AdmittedSession) => {
      const result = (await session.client.request(upstreamRequest as never, resultSchema as never, {
        signal: extra.signal,
        timeout: this.options.requestTimeoutMs,
      })) as z.output<S>;
      await writes;
      return result;
    };
    try {
      return await this.options.upstream.track(() => this.sendOnce(send, extra, repeatable));
    } finally {
      if (ownToken !== undefined) this.progressListeners.delete(ownToken);
    }
  }

  private async sendOnce<T>(
    send: (session: AdmittedSession) => Promise<T>,
    extra: RequestExtra,
    repeatable: boolean,
  ): Promise<T> {
    const session = await this.sessionOrError();
    try {
      return await send(session);
    } catch (error) {
      if (extra.signal.aborted || !connectionLost(error)) throw error;
      this.options.upstream.broken(session);
      if (!repeatable) {
        throw new McpError(
          ErrorCode.InternalError,
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
      throw new McpError(
        ErrorCode.InternalError,
        `gateway unavailable: ${error instanceof Error ? error.message : 'cannot connect'}`,
      );
    }
  }
}
