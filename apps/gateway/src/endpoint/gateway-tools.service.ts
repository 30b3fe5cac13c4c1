import { randomUUID } from 'node:crypto';
import type { ElicitationRelay, ToolCallOutcome } from '@gatehouse/mcp-client';
import type { GatewayCaller } from '../callers/caller.js';
import { callerPolicyOf } from '../catalog/caller-policy.js';
import type { CatalogCache } from '../catalog/catalog-cache.js';
import type { CatalogFreshness, ExposedTool } from '../catalog/tool-policy.js';
import type { WorkspaceCatalogClient } from '../catalog/workspace-catalog.client.js';
import { traceContextOf, traceHeadersOf, type RequestHeaders } from '../upstreams/trace-context.js';
import {
  callLeasedUpstream,
  unavailable,
  type InputUnavailable,
  type UpstreamUnavailable,
} from '../upstreams/leased-call.js';
import type { UpstreamPool } from '../upstreams/upstream-pool.js';

// What the workspace endpoint does for a caller, in our own terms (the MCP server adapter maps them to the SDK's):
// list the tools the caller's catalog policy exposes, and call one of exactly those through the upstream of its
// server for the caller's principal. Every outcome a client must tell apart is typed; nothing here carries an
// upstream's error text, a secret or an argument value.

/** An upstream's tool result, as libs/mcp-client admitted it (capped). */
export type UpstreamToolResult = Extract<ToolCallOutcome, { ok: true }>['result'];

export type ToolListing =
  | { readonly ok: true; readonly tools: readonly ExposedTool[]; readonly freshness: CatalogFreshness }
  | { readonly ok: false; readonly reason: 'catalog_unavailable' };

export type ToolCallAnswer =
  /** The upstream answered: its result as it is (a tool error is a result with isError). */
  | { readonly ok: true; readonly result: UpstreamToolResult }
  /** Not a tool this caller has (never listed, outside allowTools, a server not approved or revoked). */
  | { readonly ok: false; readonly reason: 'unknown_tool' }
  /** The arguments do not fit the tool's narrowed schema: where, and which rule, never the value. */
  | {
      readonly ok: false;
      readonly reason: 'invalid_arguments';
      readonly path: string;
      readonly problem: string;
    }
  /** The caller's catalog could not be read now. */
  | { readonly ok: false; readonly reason: 'catalog_unavailable' }
  /** The server could not be leased or reached, or the call failed on the way: typed, content-free. */
  | UpstreamUnavailable
  /** The upstream needed an answer from the caller, who could not be asked: why, never the question. */
  | InputUnavailable;

export interface CallBounds {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * The headers of the caller's HTTP request that carried this call: its W3C trace context, when it holds, goes on
   * this call's own upstream requests, to an origin the tenant listed (decision 0106).
   */
  readonly requestHeaders?: RequestHeaders;
  /** The MCP session that made the call; absent for a sessionless request (then the call is its own scope). */
  readonly sessionId?: string;
  /**
   * Relays an upstream's `elicitation/create` during this call to the client of the session that made it
   * (decision 0107); absent when that client did not declare elicitation (the upstream is then refused, typed).
   */
  readonly onElicitation?: ElicitationRelay;
}

export class GatewayToolsService {
  constructor(
    private readonly catalogs: CatalogCache,
    private readonly catalogClient: WorkspaceCatalogClient,
    private readonly upstreams: UpstreamPool,
  ) {}

  async list(caller: GatewayCaller): Promise<ToolListing> {
    const read = await callerPolicyOf(this.catalogs, this.catalogClient, caller);
    if (!read.ok) return { ok: false, reason: 'catalog_unavailable' };
    return { ok: true, tools: read.policy.tools, freshness: read.policy.freshness };
  }

  async call(
    caller: GatewayCaller,
    name: string,
    args: Record<string, unknown>,
    bounds: CallBounds = {},
  ): Promise<ToolCallAnswer> {
    const read = await callerPolicyOf(this.catalogs, this.catalogClient, caller);
    if (!read.ok) return { ok: false, reason: 'catalog_unavailable' };
    // The same policy tools/list rendered: a name it does not hold is refused whatever an upstream offers.
    const exposed = read.policy.byName.get(name);
    if (exposed === undefined) return { ok: false, reason: 'unknown_tool' };
    const key = {
      tenantId: caller.tenantId,
      workspaceId: caller.workspaceId,
      server: exposed.server,
      principal: caller.userId,
    };
    const headers = traceHeadersOf(traceContextOf(bounds.requestHeaders));
    const outcome = await callLeasedUpstream(this.upstreams, key, (supervisor) =>
      supervisor.callTool(exposed.remoteName, args, {
        ...(bounds.signal === undefined ? {} : { signal: bounds.signal }),
        ...(bounds.onProgress === undefined ? {} : { onProgress: bounds.onProgress }),
        ...(headers === undefined ? {} : { headers }),
        // Only the session that made the call may be asked; calls of two sessions in flight at once: nobody.
        elicitation: {
          scope: bounds.sessionId ?? `call:${randomUUID()}`,
          relay: bounds.onElicitation ?? null,
        },
      }),
    );
    if (outcome.ok) return { ok: true, result: outcome.result };
    switch (outcome.reason) {
      case 'invalid_arguments':
        return { ok: false, reason: 'invalid_arguments', path: outcome.path, problem: outcome.problem };
      case 'unknown_tool':
        // Catalogued, but the connected upstream does not list it (yet): its catalog and ours disagree.
        return unavailable(exposed.server, 'tool_not_listed');
      case 'upstream_unavailable':
      case 'input_unavailable':
        return outcome;
    }
  }
}
