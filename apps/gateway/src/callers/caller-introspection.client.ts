import { tokenIntrospection } from '@gatehouse/contracts';
import type { CallerCheck } from './caller.js';

// The gateway's side of `tokens.introspect` (decision 0079): POST the caller's token and the workspace it asked
// for, with the gateway's own token. The answer is parsed, never trusted. Expected outcomes are typed; the API
// unreachable, a 5xx, 429 or an answer that does not parse throw (the request then fails as unavailable, and
// nothing is cached).

/** The API could not answer: the caller gets 503, not a refusal it would act on. */
export class IntrospectionUnavailableError extends Error {
  constructor(readonly status: number | null) {
    super(`token introspection ${status === null ? 'unreachable' : `answered ${status}`}`);
    this.name = 'IntrospectionUnavailableError';
  }
}

export interface CallerIntrospectionClientOptions {
  readonly apiUrl: string;
  readonly gatewayToken: string;
  /** Per request (default 5 s). */
  readonly timeoutMs?: number;
}

export class CallerIntrospectionClient {
  constructor(private readonly options: CallerIntrospectionClientOptions) {}

  async introspect(token: string, workspaceId: string): Promise<CallerCheck> {
    let response: Response;
    try {
      response = await fetch(new URL('/v1/tokens/introspect', this.options.apiUrl), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.gatewayToken}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ token, workspaceId }),
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
      });
    } catch {
      throw new IntrospectionUnavailableError(null);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 404) return { ok: false, reason: 'workspace_not_found' };
    if (!response.ok) throw new IntrospectionUnavailableError(response.status);
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      throw new IntrospectionUnavailableError(response.status);
    }
    const parsed = tokenIntrospection.safeParse(body);
    if (!parsed.success) throw new IntrospectionUnavailableError(response.status);
    const answer = parsed.data;
    if (!answer.active || answer.tokenId === null || answer.tenantId === null || answer.kind === null)
      return { ok: false, reason: 'unauthenticated' };
    return {
      ok: true,
      caller: {
        tokenId: answer.tokenId,
        tenantId: answer.tenantId,
        kind: answer.kind,
        userId: answer.userId,
        workspaceId: workspaceId.toLowerCase(),
        expiresAt: answer.expiresAt === null ? null : new Date(answer.expiresAt),
      },
    };
  }
}
