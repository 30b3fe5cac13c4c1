import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, problemJson } from '@gatehouse/platform';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayCaller } from '../callers/caller.js';
import type { SurfaceScope } from '../catalog/served-surface.js';
import type { ToolCallHandler } from './tool-call-handler.js';
import { WarmToolCalls } from './warm-tool-calls.js';
import { CALLER_KEY } from './workspace-mcp-server.js';

// Streamable HTTP for the workspace endpoint (decision 0080): the one place the gateway touches the SDK's server
// transport. An `initialize` without a session opens a session (a Server and a transport of its own, id from
// randomUUID) bound to the workspace and the token that opened it; a request naming a session is served by it
// only for that same token and workspace (anyone else's, or an unknown id, is the protocol's 404 "session not
// found", after which a client re-initializes). A POST without a session that is not an initialize is served
// statelessly by a throwaway server, so it works on any replica. Sessions live in this process only: the load
// balancer must route on Mcp-Session-Id (README), and a replica that dies costs its sessions a re-initialize.
// A session is bound to the surface it was opened on too (the workspace endpoint, or one server's passthrough,
// decision 0105): named on another path, it is not found.

interface Session {
  readonly id: string;
  /** Requests being served (an open GET stream counts while it is open). */
  inFlight: number;
  lastSeen: number;
  readonly workspaceId: string;
  readonly tokenId: string;
  readonly principal: string | null;
  /** The surface the session was opened on: `''` the workspace endpoint, else the passthrough's server. */
  readonly surface: string;
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport;
  /** The session's warm tools/call (decision 0125); absent when its server has no tools/call of ours. */
  readonly warm: WarmToolCalls | undefined;
}

/** One session's server and, when it serves tools, its tools/call for the warm-call path. */
export interface SessionServer {
  readonly server: Server;
  readonly callTool?: ToolCallHandler;
}

export interface McpSessionsOptions {
  /** A new Server for one session (or one stateless request) on this surface. */
  readonly createServer: (scope: SurfaceScope) => SessionServer;
  readonly onSessionCount?: (count: number) => void;
  /** A session id this caller may not use (unknown, another token's, another surface's). */
  readonly onSessionNotFound?: (caller: GatewayCaller) => void;
  /** A session with no request for this long is closed (its client re-initializes). Default 30 minutes. */
  readonly idleCloseMs?: number;
  /**
   * Open sessions one token may hold on this replica. At the bound, its new session replaces its least recently
   * used idle one (whose client re-initializes on its next request); with all of them busy it is refused (429).
   * Default 100.
   */
  readonly maxSessionsPerToken?: number;
  /** Between keep-alive comments on a warm call's response; default the SDK transport's (15 s). */
  readonly keepAliveMs?: number;
  /** A token at its session bound with every session busy was refused a new one. */
  readonly onSessionLimit?: (caller: GatewayCaller) => void;
  readonly now?: () => number;
}

const DEFAULT_IDLE_CLOSE_MS = 30 * 60_000;
const DEFAULT_MAX_SESSIONS_PER_TOKEN = 100;
const WORKSPACE: SurfaceScope = { kind: 'workspace' };

/** Server names never are empty, so `''` is the workspace endpoint's own key. */
function surfaceKeyOf(scope: SurfaceScope): string {
  return scope.kind === 'workspace' ? '' : scope.server;
}

/** The JSON-RPC error the transport itself answers for an unknown session (HTTP 404). */
const SESSION_NOT_FOUND = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32001, message: 'Session not found' },
  id: null,
});

/** A token at its session bound with every one of them busy (problem+json, as the endpoint's refusals). */
const SESSION_LIMIT = JSON.stringify(
  problemJson({
    status: 429,
    code: 'rate_limited',
    title: 'Too many sessions',
    detail: 'This token holds as many open sessions as it may, all of them busy. Close one or retry.',
  }),
);

/** Whether a JSON-RPC message (or a batch) carries a progress token. */
function asksForProgress(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    if (typeof message !== 'object' || message === null) return false;
    const params = (message as { params?: unknown }).params;
    if (typeof params !== 'object' || params === null) return false;
    const meta = (params as { _meta?: unknown })._meta;
    return typeof meta === 'object' && meta !== null && 'progressToken' in meta;
  });
}

export class McpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly idleCloseMs: number;
  private readonly maxSessionsPerToken: number;
  private readonly now: () => number;

  constructor(private readonly options: McpSessionsOptions) {
    this.idleCloseMs = options.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS;
    this.maxSessionsPerToken = options.maxSessionsPerToken ?? DEFAULT_MAX_SESSIONS_PER_TOKEN;
    this.now = options.now ?? (() => Date.now());
    // A client that goes away without DELETE leaves its session behind: swept once it has been idle long enough.
    this.sweeper = setInterval(() => void this.sweep(), Math.max(1_000, this.idleCloseMs / 4));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Open sessions per workspace (the activity recorder's flush reads it; nothing on the request path). */
  countsByWorkspace(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { workspaceId } of this.sessions.values())
      counts.set(workspaceId, (counts.get(workspaceId) ?? 0) + 1);
    return counts;
  }

  /** Serves one authenticated request (the endpoint has checked Host, Origin, the token and the rate limits). */
  async handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    caller: GatewayCaller,
    scope: SurfaceScope = WORKSPACE,
  ): Promise<void> {
    // The request's own caller, for the handlers; never the token.
    const withAuth = Object.assign(request, {
      auth: { token: '', clientId: caller.tokenId, scopes: [], extra: { [CALLER_KEY]: caller } },
    });
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (
        session === undefined ||
        session.tokenId !== caller.tokenId ||
        session.workspaceId !== caller.workspaceId ||
        session.surface !== surfaceKeyOf(scope)
      ) {
        this.options.onSessionNotFound?.(caller);
        response.writeHead(404, { 'content-type': 'application/json' }).end(SESSION_NOT_FOUND);
        return;
      }
      session.inFlight += 1;
      session.lastSeen = this.now();
      response.once('close', () => {
        session.inFlight -= 1;
        session.lastSeen = this.now();
      });
      if (session.warm?.serve(withAuth, response, body, caller) === true) return;
      await session.transport.handleRequest(withAuth, response, body);
      return;
    }
    if (request.method === 'POST' && isInitializeRequest(body))
      return this.open(withAuth, response, body, caller, scope);
    if (request.method === 'POST') return this.stateless(withAuth, response, body, scope);
    // A stream (GET) or a session's end (DELETE) needs a session.
    response.writeHead(400, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' },
        id: null,
      }),
    );
  }

  /**
   * Tells the sessions that serve this server of the workspace (its workspace endpoint's, and its own
   * passthrough's) that its lists changed (an upstream said so). The upstream's refresh does not say which list
   * changed, so each is told all three: a client re-lists, which costs it a request, never a stale list.
   */
  notifyListsChanged(workspaceId: string, server: string): void {
    for (const session of this.sessions.values()) {
      if (session.workspaceId !== workspaceId) continue;
      if (session.surface !== '' && session.surface !== server) continue;
      void session.server.sendToolListChanged().catch(() => undefined);
      void session.server.sendPromptListChanged().catch(() => undefined);
      void session.server.sendResourceListChanged().catch(() => undefined);
    }
  }

  /** Closes the sessions opened with these tokens (revoked): their next request is a 404, then a 401. */
  async closeForTokens(tokenIds: readonly string[]): Promise<void> {
    const closing = [...this.sessions.values()].filter((s) => tokenIds.includes(s.tokenId));
    await Promise.all(closing.map((session) => this.closeSession(session)));
  }

  /** Closes the sessions idle past the bound (nothing in flight, no request since). */
  async sweep(): Promise<void> {
    const now = this.now();
    const idle = [...this.sessions.values()].filter(
      (s) => s.inFlight === 0 && now - s.lastSeen >= this.idleCloseMs,
    );
    await Promise.all(idle.map((session) => this.closeSession(session)));
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((session) => this.closeSession(session)));
  }

  private async open(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    caller: GatewayCaller,
    scope: SurfaceScope,
  ): Promise<void> {
    if (!(await this.roomFor(caller))) {
      this.options.onSessionLimit?.(caller);
      response
        .writeHead(429, { 'content-type': PROBLEM_CONTENT_TYPE, 'retry-after': '1' })
        .end(SESSION_LIMIT);
      return;
    }
    const { server, callTool } = this.options.createServer(scope);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, {
          id,
          inFlight: 0,
          lastSeen: this.now(),
          workspaceId: caller.workspaceId,
          tokenId: caller.tokenId,
          principal: caller.userId,
          surface: surfaceKeyOf(scope),
          server,
          transport,
          warm:
            callTool === undefined
              ? undefined
              : new WarmToolCalls(
                  id,
                  callTool,
                  () => server.getClientCapabilities(),
                  this.options.keepAliveMs,
                ),
        });
        this.options.onSessionCount?.(this.sessions.size);
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id === undefined) return;
      this.sessions.get(id)?.warm?.abortAll();
      if (this.sessions.delete(id)) this.options.onSessionCount?.(this.sessions.size);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  private async stateless(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    scope: SurfaceScope,
  ): Promise<void> {
    const { server } = this.options.createServer(scope);
    // Without a session nothing but the call's own progress can come before its answer (no elicitation: the
    // answer to it would reach another replica's throwaway server), so only a request that asked for progress
    // gets an event stream; any other is answered as plain JSON, without the SSE framing (decision 0111).
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !asksForProgress(body),
    });
    response.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  /** Whether the token may open one more session, after letting its least recently used idle one go if need be. */
  private async roomFor(caller: GatewayCaller): Promise<boolean> {
    let count = 0;
    let idlest: Session | undefined;
    for (const session of this.sessions.values()) {
      if (session.tokenId !== caller.tokenId) continue;
      count += 1;
      if (session.inFlight === 0 && (idlest === undefined || session.lastSeen < idlest.lastSeen))
        idlest = session;
    }
    if (count < this.maxSessionsPerToken) return true;
    if (idlest === undefined) return false;
    await this.closeSession(idlest);
    return true;
  }

  private async closeSession(session: Session): Promise<void> {
    if (this.sessions.delete(session.id)) this.options.onSessionCount?.(this.sessions.size);
    session.warm?.abortAll();
    await session.server.close().catch(() => undefined);
  }
}
