import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayCaller } from '../callers/caller.js';
import type { SurfaceScope } from '../catalog/served-surface.js';
import type { McpSessions } from './mcp-sessions.js';
import type { ModernExchanges } from './modern/modern-exchanges.js';
import { eraRouteOf } from './modern/protocol-era.js';

// Both protocol eras on one URL (decision 0144): a 2026-07-28 request is one exchange of its own (ModernExchanges),
// anything else goes to the 2025 sessions as before (McpSessions). What happens to the gateway's clients as a whole
// (an upstream's lists changed, a token was revoked, the replica shuts down) reaches both.

export class McpServing {
  constructor(
    readonly sessions: McpSessions,
    readonly modern: ModernExchanges,
  ) {}

  /** Serves one authenticated request (the endpoint has checked Host, Origin, the token and the rate limits). */
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    caller: GatewayCaller,
    scope: SurfaceScope,
  ): Promise<void> {
    const route = eraRouteOf(request, body);
    return route.era === 'legacy'
      ? this.sessions.handle(request, response, body, caller, scope)
      : this.modern.handle(request, response, body, caller, scope, route.accepted);
  }

  notifyListsChanged(workspaceId: string, server: string): void {
    this.sessions.notifyListsChanged(workspaceId, server);
    this.modern.notifyListsChanged(workspaceId, server);
  }

  async closeForTokens(tokenIds: readonly string[]): Promise<void> {
    this.modern.closeForTokens(tokenIds);
    await this.sessions.closeForTokens(tokenIds);
  }

  /** Open 2025 sessions per workspace (a 2026 client holds none). */
  countsByWorkspace(): Map<string, number> {
    return this.sessions.countsByWorkspace();
  }

  async close(): Promise<void> {
    await Promise.all([this.sessions.close(), this.modern.close()]);
  }
}
