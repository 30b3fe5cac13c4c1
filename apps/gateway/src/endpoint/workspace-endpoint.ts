import type { IncomingMessage, ServerResponse } from 'node:http';
import { isValidServerName } from '@gatehouse/definitions';
import { PROBLEM_CONTENT_TYPE, problemJson, type Logger } from '@gatehouse/platform';
import type { ProblemCode } from '@gatehouse/contracts';
import type { CallerCheck, GatewayCaller } from '../callers/caller.js';
import type { SurfaceScope } from '../catalog/served-surface.js';
import type { CallerCache } from '../callers/caller-cache.js';
import {
  IntrospectionUnavailableError,
  type CallerIntrospectionClient,
} from '../callers/caller-introspection.client.js';
import type { GatewayMetrics, GatewayRefusalReason } from './gateway-metrics.js';
import { checkOriginAndHost, type OriginHostPolicy } from './origin-host.guard.js';
import type { RateLimiter } from './rate-limiter.js';

// `/mcp/w/:workspaceId` before the MCP transport sees anything (decision 0080), in this order: Host and Origin
// (DNS rebinding: 403), the bearer token (missing, malformed or not active: 401 with WWW-Authenticate; a live
// token for which the workspace does not exist: 404, the same answer as a workspace that is nobody's), then the
// per-token and per-workspace rate limits (429 with Retry-After). Every refusal is problem+json with a stable code
// and is counted by reason. Only then does the request reach the session layer, with its caller.
//
// `/mcp/w/:workspaceId/s/:server` (the passthrough, decision 0105) is the same endpoint with one more check after
// the rate limits: the server must be in the caller's catalog now (approved for the principal, discovered, not
// revoked), else the same 404 as a workspace that does not exist, so a caller learns nothing about servers it is
// not served. It is asked on every request, not only at initialize: a revoked server's session is refused at once.

/** A bearer credential: the scheme (any case), one space, a token of our shape and bounded length. */
const BEARER = /^bearer ([A-Za-z0-9_]{16,512})$/i;
const WORKSPACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_SHAPE = /^gh[ua]_[A-Za-z0-9]{16,}$/;

/** Whether the caller's catalog serves a server now (the passthrough's admission). */
export type ServedCheck = 'served' | 'not_served' | 'unavailable';

export interface WorkspaceEndpointOptions {
  readonly callers: CallerCache;
  readonly introspection: CallerIntrospectionClient | null;
  readonly originHost: OriginHostPolicy;
  readonly perToken: RateLimiter;
  readonly perWorkspace: RateLimiter;
  readonly metrics: GatewayMetrics;
  /** A refusal of a caller the workspace vouches for (admitted, then rate-limited or not served that server). */
  readonly onCallerRefused?: (workspaceId: string, reason: GatewayRefusalReason) => void;
  readonly logger: Logger;
  /** Whether the caller is served this server now (from the caller's catalog policy). */
  readonly isServed: (caller: GatewayCaller, server: string) => Promise<ServedCheck>;
  /** The session layer (the SDK adapter): serves an admitted request on its surface. */
  readonly serve: (
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    caller: GatewayCaller,
    scope: SurfaceScope,
  ) => Promise<void>;
}

interface Refusal {
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string;
  readonly detail: string;
  readonly reason: GatewayRefusalReason;
  readonly headers?: Readonly<Record<string, string>>;
  /** Set only once the caller is authenticated for this workspace: the refusal is then the workspace's to see. */
  readonly callerWorkspaceId?: string;
}

export class WorkspaceEndpoint {
  constructor(private readonly options: WorkspaceEndpointOptions) {}

  async handle(
    workspaceId: string,
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
    /** The passthrough's server; absent: the workspace endpoint. */
    server?: string,
  ): Promise<void> {
    const admitted = await this.admit(workspaceId, request);
    if ('status' in admitted) return this.refuse(response, admitted);
    if (server === undefined)
      return this.options.serve(request, response, body, admitted, { kind: 'workspace' });
    const served = await this.servedCheck(admitted, server);
    if (served !== undefined)
      return this.refuse(response, { ...served, callerWorkspaceId: admitted.workspaceId });
    await this.options.serve(request, response, body, admitted, { kind: 'server', server });
  }

  /** The passthrough's server, checked like the workspace itself: not served reads exactly as nobody's. */
  private async servedCheck(caller: GatewayCaller, server: string): Promise<Refusal | undefined> {
    // Not a name a definition may have: served nowhere, and the same 404.
    if (!isValidServerName(server)) return workspaceNotFound('server_not_found');
    const served = await this.options.isServed(caller, server);
    if (served === 'served') return undefined;
    if (served === 'unavailable') return unavailable('The workspace catalog could not be read. Try again.');
    return workspaceNotFound('server_not_found');
  }

  private async admit(workspaceId: string, request: IncomingMessage): Promise<GatewayCaller | Refusal> {
    const place = checkOriginAndHost(
      { host: request.headers.host, origin: request.headers.origin },
      this.options.originHost,
    );
    if (!place.ok) {
      return {
        status: 403,
        code: 'forbidden',
        title: 'Forbidden',
        detail:
          place.reason === 'host_not_allowed'
            ? 'This gateway does not answer for that Host.'
            : 'Requests from this Origin are not accepted.',
        reason: place.reason,
      };
    }
    const bearer = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (bearer === undefined || !TOKEN_SHAPE.test(bearer)) return unauthenticated('invalid_request');
    // A malformed id is a workspace that does not exist: the same 404 as any other.
    if (!WORKSPACE_ID.test(workspaceId)) return workspaceNotFound();
    const introspection = this.options.introspection;
    if (introspection === null) return unavailable('This gateway has no GATEWAY_TOKEN configured.');
    let check: CallerCheck;
    try {
      check = await this.options.callers.check(bearer, workspaceId, () =>
        introspection.introspect(bearer, workspaceId),
      );
    } catch (error) {
      if (!(error instanceof IntrospectionUnavailableError)) throw error;
      this.options.logger.warn({ status: error.status }, 'gateway: token introspection unavailable');
      return unavailable('The control plane could not be reached. Try again.');
    }
    if (!check.ok)
      return check.reason === 'unauthenticated' ? unauthenticated('invalid_token') : workspaceNotFound();
    const caller = check.caller;
    const token = this.options.perToken.take(caller.tokenId);
    if (!token.ok)
      return {
        ...rateLimited('rate_limited_token', token.retryAfterSeconds),
        callerWorkspaceId: caller.workspaceId,
      };
    const workspace = this.options.perWorkspace.take(caller.workspaceId);
    if (!workspace.ok)
      return {
        ...rateLimited('rate_limited_workspace', workspace.retryAfterSeconds),
        callerWorkspaceId: caller.workspaceId,
      };
    return caller;
  }

  private refuse(response: ServerResponse, refusal: Refusal): void {
    this.options.metrics.refused(refusal.reason);
    if (refusal.callerWorkspaceId !== undefined)
      this.options.onCallerRefused?.(refusal.callerWorkspaceId, refusal.reason);
    const body = JSON.stringify(
      problemJson({
        status: refusal.status,
        code: refusal.code,
        title: refusal.title,
        detail: refusal.detail,
      }),
    );
    response
      .writeHead(refusal.status, { 'content-type': PROBLEM_CONTENT_TYPE, ...refusal.headers })
      .end(body);
  }
}

function unauthenticated(error: 'invalid_request' | 'invalid_token'): Refusal {
  return {
    status: 401,
    code: 'unauthenticated',
    title: 'Unauthenticated',
    detail: 'Present a user or agent token of this workspace as `Authorization: Bearer <token>`.',
    reason: 'unauthenticated',
    headers: { 'www-authenticate': `Bearer realm="gatehouse", error="${error}"` },
  };
}

/** One 404 for a workspace and for a passthrough's server the caller is not served: the same body, always. */
function workspaceNotFound(
  reason: 'workspace_not_found' | 'server_not_found' = 'workspace_not_found',
): Refusal {
  return {
    status: 404,
    code: 'not_found',
    title: 'Not found',
    detail: 'No such workspace.',
    reason,
  };
}

function unavailable(detail: string): Refusal {
  return {
    status: 503,
    code: 'dependency_unavailable',
    title: 'Unavailable',
    detail,
    reason: 'unavailable',
    headers: { 'retry-after': '1' },
  };
}

function rateLimited(
  reason: 'rate_limited_token' | 'rate_limited_workspace',
  retryAfterSeconds: number,
): Refusal {
  return {
    status: 429,
    code: 'rate_limited',
    title: 'Too many requests',
    detail:
      reason === 'rate_limited_token'
        ? 'This token made too many requests. Retry after the time in Retry-After.'
        : 'This workspace received too many requests. Retry after the time in Retry-After.',
    reason,
    headers: { 'retry-after': String(retryAfterSeconds) },
  };
}
