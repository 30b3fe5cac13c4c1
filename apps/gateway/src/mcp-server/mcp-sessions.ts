import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, problemJson, webRequestOf, writeWebResponse } from '@gatehouse/platform';
import {
  isInitializeRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type Server,
} from '@modelcontextprotocol/server';
import type { GatewayCaller } from '../callers/caller.js';
import type { SurfaceScope } from '../catalog/served-surface.js';
import type { ToolCallHandler } from './tool-call-handler.js';
import { SSE_KEEP_ALIVE_MS, WarmToolCalls } from './warm-tool-calls.js';
import { REQUEST_SCOPE_KEY, type SurfaceRequestScope } from './workspace-server.js';

// Streamable HTTP of the 2025 era for both endpoints (decision 0080): the one place the gateway holds the SDK's
// sessionful server transport (SDK v2's web-standard one, reached through the platform's web-exchange bridge). An `initialize` without a session opens a session (a Server and a transport of its own, id from
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
  readonly transport: WebStandardStreamableHTTPServerTransport;
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
  /** Between keep-alive comments on an event stream (the transport's and a warm call's); default 15 s. */
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

/**
 * One request through a session's (or a sessionless request's) transport: Node's request as a web Request (its
 * signal aborts when the client goes away), the transport's Response written back as it comes.
 */
async function serveThrough(
  transport: WebStandardStreamableHTTPServerTransport,
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  authInfo: AuthInfo,
): Promise<void> {
  const gone = new AbortController();
  response.once('close', () => gone.abort());
  const answer = await transport.handleRequest(webRequestOf(request, gone.signal), {
    parsedBody: body,
    authInfo,
  });
  await writeWebResponse(answer, response);
}

export class McpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly idleCloseMs: number;
  private readonly maxSessionsPerToken: number;
  private readonly keepAliveMs: number;
  private readonly now: () => number;

  constructor(private readonly options: McpSessionsOptions) {
    this.idleCloseMs = options.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS;
    this.maxSessionsPerToken = options.maxSessionsPerToken ?? DEFAULT_MAX_SESSIONS_PER_TOKEN;
    this.keepAliveMs = options.keepAliveMs ?? SSE_KEEP_ALIVE_MS;
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
    const requestScope: SurfaceRequestScope = { caller, scope, headers: request.headers };
    const authInfo: AuthInfo = {
      token: '',
      clientId: caller.tokenId,
      scopes: [],
      extra: { [REQUEST_SCOPE_KEY]: requestScope },
    };
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
      if (session.warm?.serve(request, response, body, caller) === true) return;
      await serveThrough(session.transport, request, response, body, authInfo);
      return;
    }
    if (request.method === 'POST' && isInitializeRequest(body))
      return this.open(request, response, body, caller, scope, authInfo);
    if (request.method === 'POST') return this.stateless(request, response, body, scope, authInfo);
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
    authInfo: AuthInfo,
  ): Promise<void> {
    if (!(await this.roomFor(caller))) {
      this.options.onSessionLimit?.(caller);
      response
        .writeHead(429, { 'content-type': PROBLEM_CONTENT_TYPE, 'retry-after': '1' })
        .end(SESSION_LIMIT);
      return;
    }
    const { server, callTool } = this.options.createServer(scope);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      keepAliveMs: this.keepAliveMs,
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
              : new WarmToolCalls(id, callTool, () => server.getClientCapabilities(), this.keepAliveMs),
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
    await serveThrough(transport, request, response, body, authInfo);
  }

  private async stateless(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    scope: SurfaceScope,
    authInfo: AuthInfo,
  ): Promise<void> {
    const { server } = this.options.createServer(scope);
    // Without a session nothing but the call's own progress can come before its answer (no elicitation: the
    // answer to it would reach another replica's throwaway server), so only a request that asked for progress
    // gets an event stream; any other is answered as plain JSON, without the SSE framing (decision 0111).
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !asksForProgress(body),
      keepAliveMs: this.keepAliveMs,
    });
    response.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await serveThrough(transport, request, response, body, authInfo);
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
