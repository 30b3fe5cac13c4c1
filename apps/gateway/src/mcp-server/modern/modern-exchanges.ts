import type { IncomingMessage, ServerResponse } from 'node:http';
import { webRequestOf, writeWebResponse } from '@gatehouse/platform';
import { createMcpHandler, type JSONRPCRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { GatewayCaller } from '../../callers/caller.js';
import type { SurfaceScope } from '../../catalog/served-surface.js';
import type { SurfaceRequests } from '../surface-requests.js';
import type { BridgeState, ElicitationBridgeOptions } from './elicitation-bridge.js';
import { answerPlainCall, plainCallOf } from './plain-tool-calls.js';
import {
  createWorkspaceServer,
  REQUEST_SCOPE_KEY,
  requestStateBindingOf,
  type SurfaceRequestScope,
} from '../workspace-server.js';
import { requestStateCodec } from './request-state-codec.js';
import type { SpentRequestStates } from './spent-request-states.js';

// The 2026-07-28 leg of both endpoints (decision 0144): each request is one exchange with a server of its own,
// built for it and gone with it, so it needs no session and may land on any replica. SDK v2's per-request handler
// (`legacy: 'reject'`: 2025 traffic never reaches it, the 2025 sessions serve that) answers `server/discover`,
// checks the envelope and the Mcp-Method/Mcp-Name headers against the body, stamps `resultType` and the list
// results' cache fields (ttlMs 0, cacheScope private: every list is the caller's own), and serves
// `subscriptions/listen`. A listen stream hears of changes through its handler's bus; there is one handler per
// workspace surface (the workspace endpoint, and each server's passthrough), so a change reaches the streams of
// the workspace it happened in and no other. A plain tools/call (plain-tool-calls: one answer, nothing more) is
// answered without building a server for it, by the same tool-call handler, as the SDK would answer it.

export interface ModernExchangesOptions {
  /** The surface's requests (the same ones the 2025 sessions serve). */
  readonly requestsFor: (scope: SurfaceScope) => SurfaceRequests;
  readonly serverInfo: { readonly name: string; readonly version: string };
  /** Handlers kept for listen streams, least recently used first out. Default 10,000. */
  readonly maxHandlers?: number;
  readonly onError?: (error: Error) => void;
  /** The elicitation bridge's state key (the same on every replica) and its spent nonces; absent, no bridge. */
  readonly requestStates?: { readonly key: Uint8Array; readonly spent: SpentRequestStates };
}

const DEFAULT_MAX_HANDLERS = 10_000;

function handlerKeyOf(workspaceId: string, scope: SurfaceScope): string {
  return scope.kind === 'workspace' ? workspaceId : `${workspaceId}/${scope.server}`;
}

/** One surface of one workspace: its requests, and the SDK handler that serves whatever is not a plain call. */
interface SurfaceServing {
  readonly requests: SurfaceRequests;
  readonly handler: McpHttpHandler;
}

export class ModernExchanges {
  private readonly surfaces = new Map<string, SurfaceServing>();
  /** Each token's exchanges being served (an open listen stream counts while it is open), to end at revocation. */
  private readonly inFlight = new Map<string, Set<() => void>>();
  private readonly maxHandlers: number;
  private readonly bridge: ElicitationBridgeOptions | undefined;

  constructor(private readonly options: ModernExchangesOptions) {
    this.maxHandlers = options.maxHandlers ?? DEFAULT_MAX_HANDLERS;
    const states = options.requestStates;
    this.bridge =
      states === undefined
        ? undefined
        : { codec: requestStateCodec<BridgeState>(states.key, requestStateBindingOf), spent: states.spent };
  }

  /** Serves one authenticated 2026 request (the endpoint has checked Host, Origin, the token and the limits). */
  async handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    caller: GatewayCaller,
    scope: SurfaceScope,
    /** The request as the SDK's classifier accepted it (protocol-era); absent for what it refused. */
    accepted?: JSONRPCRequest,
  ): Promise<void> {
    const gone = new AbortController();
    const end = () => {
      gone.abort();
      response.destroy();
    };
    const ofToken = this.inFlight.get(caller.tokenId) ?? new Set();
    this.inFlight.set(caller.tokenId, ofToken.add(end));
    response.once('close', () => {
      gone.abort();
      ofToken.delete(end);
      if (ofToken.size === 0 && this.inFlight.get(caller.tokenId) === ofToken)
        this.inFlight.delete(caller.tokenId);
    });
    const serving = this.servingFor(caller.workspaceId, scope);
    const plain = accepted === undefined ? undefined : plainCallOf(request.headers, accepted);
    if (plain !== undefined) {
      const channel = { signal: gone.signal, requestHeaders: request.headers };
      await answerPlainCall(
        response,
        plain,
        caller,
        serving.requests.callTool,
        channel,
        this.options.serverInfo,
      );
      return;
    }
    const exchange: SurfaceRequestScope = { caller, scope, headers: request.headers };
    const answer = await serving.handler.fetch(webRequestOf(request, gone.signal), {
      parsedBody: body,
      // The caller, never the token: the server reads who is asking from here.
      authInfo: {
        token: '',
        clientId: caller.tokenId,
        scopes: [],
        extra: { [REQUEST_SCOPE_KEY]: exchange },
      },
    });
    await writeWebResponse(answer, response);
  }

  /**
   * An upstream's lists changed: the listen streams of its workspace's endpoint and of its own passthrough hear
   * all three list changes (the upstream's refresh does not say which list changed; a client re-lists).
   */
  notifyListsChanged(workspaceId: string, server: string): void {
    for (const key of [workspaceId, `${workspaceId}/${server}`]) {
      const handler = this.surfaces.get(key)?.handler;
      if (handler === undefined) continue;
      handler.notify.toolsChanged();
      handler.notify.promptsChanged();
      handler.notify.resourcesChanged();
    }
  }

  /** Ends the exchanges of these tokens (revoked): an open listen stream closes, and its reopening is a 401. */
  closeForTokens(tokenIds: readonly string[]): void {
    for (const tokenId of tokenIds) for (const end of this.inFlight.get(tokenId) ?? []) end();
  }

  async close(): Promise<void> {
    const handlers = [...this.surfaces.values()].map((serving) => serving.handler);
    this.surfaces.clear();
    await Promise.all(handlers.map((handler) => handler.close().catch(() => undefined)));
    await this.bridge?.spent.close();
  }

  private servingFor(workspaceId: string, scope: SurfaceScope): SurfaceServing {
    const key = handlerKeyOf(workspaceId, scope);
    const known = this.surfaces.get(key);
    if (known !== undefined) {
      // Most recently used last, so the first key is the one to let go.
      this.surfaces.delete(key);
      this.surfaces.set(key, known);
      return known;
    }
    const requests = this.options.requestsFor(scope);
    const handler = createMcpHandler(
      () =>
        createWorkspaceServer({
          serverInfo: this.options.serverInfo,
          requests,
          era: 'modern',
          ...(this.bridge === undefined ? {} : { bridge: this.bridge }),
        }),
      { legacy: 'reject', ...(this.options.onError === undefined ? {} : { onerror: this.options.onError }) },
    );
    const serving = { requests, handler };
    this.surfaces.set(key, serving);
    if (this.surfaces.size > this.maxHandlers) {
      const [oldestKey, oldest] = this.surfaces.entries().next().value as [string, SurfaceServing];
      this.surfaces.delete(oldestKey);
      // Its listen streams end; their clients open new ones.
      void oldest.handler.close().catch(() => undefined);
    }
    return serving;
  }
}
