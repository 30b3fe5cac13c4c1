import {
  admittedTransport,
  catalogSource,
  type AdmittedTransport,
  type ProbeReport,
  type CatalogDocument,
  type DiscoveryFailureReport,
  type CatalogSource,
} from '@gatehouse/contracts';
import { z } from 'zod';

// A lease holder's side of the lease routes (decisions 0058/0059): issue, renew, release and post a snapshot (or
// why discovery failed, decision 0142) for a lease it holds, with its own token (the worker's, or the gateway's acting for a caller's principal). Every
// answer is parsed here, never trusted; expected outcomes are typed results, and only infrastructure failures
// (the API unreachable, a 5xx, an answer that does not parse) throw, so the caller retries them. The lease body holds secrets: nothing of it is logged, and errors carry status and code only.

/** What a holder reads of `POST /v1/leases` (the API sends more; unknown fields are ignored). */
const issuedLease = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  workspaceId: z.uuid(),
  serverName: z.string().min(1),
  principalUserId: z.uuid().nullable(),
  pool: z.string(),
  source: catalogSource,
  definitionFingerprint: z.string().min(1),
  approvalId: z.uuid(),
  expiresAt: z.string(),
  transport: admittedTransport,
});

export type IssuedLease = Omit<z.infer<typeof issuedLease>, 'transport' | 'source'> & {
  readonly transport: AdmittedTransport;
  readonly source: CatalogSource;
};

const problem = z.object({ code: z.string().min(1).max(100) });

/** The API answered, and said no: a 4xx problem with its stable code. */
export type LeaseRefusal = { readonly ok: false; readonly status: number; readonly code: string };

export type IssueLeaseResult = { readonly ok: true; readonly lease: IssuedLease } | LeaseRefusal;
export type RenewLeaseResult = { readonly ok: true; readonly expiresAt: string } | LeaseRefusal;

const renewedLease = z.object({ id: z.uuid(), expiresAt: z.string() });
export type LeaseCallResult = { readonly ok: true } | LeaseRefusal;

export type IssueLeaseInput = {
  readonly workspaceId: string;
  readonly serverName: string;
  readonly principalUserId: string | null;
  /** After an upstream 401: the refused access token's SHA-256 (base64url), never the token (decision 0082). */
  readonly refusedAccessTokenSha256?: string;
};

/** An infrastructure failure talking to the API: retried by the queue. Names the route and status only. */
export class LeaseApiError extends Error {
  constructor(
    readonly route: string,
    readonly status: number | null,
  ) {
    super(`lease api: ${route} ${status === null ? 'unreachable' : `answered ${status}`}`);
    this.name = 'LeaseApiError';
  }
}

export type LeaseApiClientOptions = {
  readonly apiUrl: string;
  readonly token: string;
  /** Per request (default 30 s). */
  readonly timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 30_000;

export class LeaseApiClient {
  constructor(private readonly options: LeaseApiClientOptions) {}

  async issue(input: IssueLeaseInput, signal?: AbortSignal): Promise<IssueLeaseResult> {
    const body = {
      workspaceId: input.workspaceId,
      serverName: input.serverName,
      ...(input.principalUserId === null ? {} : { principalUserId: input.principalUserId }),
      ...(input.refusedAccessTokenSha256 === undefined
        ? {}
        : { refusedAccessTokenSha256: input.refusedAccessTokenSha256 }),
    };
    const answer = await this.post('issue', '/v1/leases', body, signal);
    if (!answer.ok) return answer;
    const parsed = issuedLease.safeParse(answer.body);
    if (!parsed.success) throw new LeaseApiError('issue', answer.status);
    return { ok: true, lease: parsed.data };
  }

  /** Extends a lease this token holds; refused (409 lease_ended, 404) once it cannot be. */
  async renew(leaseId: string, signal?: AbortSignal): Promise<RenewLeaseResult> {
    const answer = await this.post('renew', `/v1/leases/${encodeURIComponent(leaseId)}/renew`, {}, signal);
    if (!answer.ok) return answer;
    const parsed = renewedLease.safeParse(answer.body);
    if (!parsed.success) throw new LeaseApiError('renew', answer.status);
    return { ok: true, expiresAt: parsed.data.expiresAt };
  }

  async release(leaseId: string, signal?: AbortSignal): Promise<LeaseCallResult> {
    const answer = await this.post(
      'release',
      `/v1/leases/${encodeURIComponent(leaseId)}/release`,
      {},
      signal,
    );
    return answer.ok ? { ok: true } : answer;
  }

  /** `probes.submit`: the connection state a probe found for the lease (decision 0078). */
  async submitProbe(leaseId: string, report: ProbeReport, signal?: AbortSignal): Promise<LeaseCallResult> {
    const answer = await this.post(
      'probe',
      `/v1/leases/${encodeURIComponent(leaseId)}/probe`,
      report,
      signal,
    );
    return answer.ok ? { ok: true } : answer;
  }

  /** Posts the one-server catalog document for the lease it was discovered through. */
  async submitSnapshot(
    leaseId: string,
    document: CatalogDocument,
    signal?: AbortSignal,
  ): Promise<LeaseCallResult> {
    const answer = await this.post(
      'snapshot',
      `/v1/leases/${encodeURIComponent(leaseId)}/snapshot`,
      { document },
      signal,
    );
    return answer.ok ? { ok: true } : answer;
  }

  /**
   * `catalog.reportFailure`: why discovering the lease's server failed, as two closed words (decision 0142); the
   * catalog shows it on the pending server until a snapshot of it is stored.
   */
  async reportDiscoveryFailure(
    leaseId: string,
    report: DiscoveryFailureReport,
    signal?: AbortSignal,
  ): Promise<LeaseCallResult> {
    const answer = await this.post(
      'discovery-failure',
      `/v1/leases/${encodeURIComponent(leaseId)}/discovery-failure`,
      { failureClass: report.failureClass, reason: report.reason },
      signal,
    );
    return answer.ok ? { ok: true } : answer;
  }

  /**
   * `catalog.refresh` as a lease holder: the server told us its lists changed on this lease (list_changed), so the
   * API enqueues its rediscovery (collapsed into a waiting job). The lease names the principal.
   */
  async reportListChanged(
    lease: { readonly id: string; readonly workspaceId: string; readonly serverName: string },
    signal?: AbortSignal,
  ): Promise<LeaseCallResult> {
    const answer = await this.post(
      'refresh',
      `/v1/workspaces/${encodeURIComponent(lease.workspaceId)}/catalog/refresh`,
      { serverName: lease.serverName, leaseId: lease.id },
      signal,
    );
    return answer.ok ? { ok: true } : answer;
  }

  private async post(
    route: string,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<{ readonly ok: true; readonly status: number; readonly body: unknown } | LeaseRefusal> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(new URL(path, this.options.apiUrl), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
    } catch {
      throw new LeaseApiError(route, null);
    }
    let json: unknown;
    try {
      const text = await response.text();
      json = text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      throw new LeaseApiError(route, response.status);
    }
    if (response.ok) return { ok: true, status: response.status, body: json };
    // 429 and 5xx are the API's trouble, not an answer about this lease: retried.
    if (response.status === 429 || response.status >= 500) throw new LeaseApiError(route, response.status);
    const refused = problem.safeParse(json);
    return { ok: false, status: response.status, code: refused.success ? refused.data.code : 'unknown' };
  }
}
