// The API-side steps every end-to-end spec of the API, the worker and the gateway takes, written once (decision
// 0121): REST calls as one of the spec's token holders, a tenant's HostPolicy, a definition source, an approval
// (a review opened by one holder and decided by the approver on what it shows) and a discovery as the worker does
// it (a lease, libs/mcp-client, catalog.submit). A lib may not import an app, so the API is a parameter: anything
// with Fastify's `inject` (the API app the spec started, or `httpApi` for one in its own process). The API's env
// comes from `testApiEnv`.
import type { CatalogDocumentV1 } from '@gatehouse/contracts';
import { catalogDocumentOf, superviseAdmitted } from '@gatehouse/mcp-client';
import type { InjectCapable } from '../cross-tenant/cross-tenant.harness';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export interface ApiApproval {
  readonly approvalId: string;
  /** The definition fingerprint the approver saw (what a catalog-refresh job names). */
  readonly fingerprint: string;
}

export interface ApiStepsOptions<Who extends string> {
  readonly api: InjectCapable;
  /** The bearer token of each holder a spec calls as. */
  readonly tokens: Readonly<Record<Who, string>>;
  /** The workspace approvals and leases are for. */
  readonly workspaceId: string;
  /** Who manages definitions and the HostPolicy and opens reviews by default, who decides, who leases. */
  readonly admin: Who;
  readonly approver: Who;
  readonly worker: Who;
  /** The discovery's clientInfo name and the PATH its stdio children get. */
  readonly discovery: { readonly clientName: string; readonly searchPath: string };
}

export interface ApiSteps<Who extends string> {
  rest(who: Who, method: ApiMethod, url: string, payload?: unknown): Promise<ApiAnswer>;
  /** `rest`, throwing with the body unless the status is the one given. */
  expectStatus(
    who: Who,
    method: ApiMethod,
    url: string,
    status: number,
    payload?: unknown,
  ): Promise<ApiAnswer>;
  /** The body of an answer (a `rest` call), throwing with it unless its status is the one given (200). */
  expectOk(answer: Promise<ApiAnswer>, status?: number): Promise<Record<string, unknown>>;
  /** Sets the tenant's HostPolicy: exactly these stdio argv prefixes, nothing else allowed or forwarded. */
  putHostPolicy(stdioCommands: readonly (readonly string[])[]): Promise<void>;
  /** Writes a definition source: managed (by the admin, under `name`) or a member's own user tier. */
  defineServers(
    who: Who,
    tier: 'managed' | 'user',
    mcpServers: Record<string, unknown>,
    name?: string,
  ): Promise<void>;
  /** Opens a review of the server in a view (asked by `asker`, the admin by default) and approves it. */
  approve(serverName: string, view?: 'workspace' | 'principal', asker?: Who): Promise<ApiApproval>;
  /**
   * Discovers a leased server through libs/mcp-client and posts its catalog for the lease, as the worker does:
   * the document posted.
   */
  discoverAndSubmit(serverName: string, principalUserId?: string): Promise<CatalogDocumentV1>;
}

/** An API in its own process (the build's main.js) reached over HTTP, in the shape of Fastify's `inject`. */
export function httpApi(baseUrl: string): InjectCapable {
  return {
    async inject(request) {
      const response = await fetch(new URL(request.url, baseUrl), {
        method: request.method,
        headers: request.headers,
        ...(request.payload !== undefined ? { body: request.payload } : {}),
      });
      return { statusCode: response.status, body: await response.text() };
    },
  };
}

export function createApiSteps<Who extends string>(options: ApiStepsOptions<Who>): ApiSteps<Who> {
  const { api, tokens, workspaceId } = options;
  const rest: ApiSteps<Who>['rest'] = async (who, method, url, payload) => {
    const response = await api.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${tokens[who]}`,
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
    return {
      status: response.statusCode,
      body: JSON.parse(response.body || 'null') as Record<string, unknown>,
    };
  };
  const expectStatus: ApiSteps<Who>['expectStatus'] = async (who, method, url, status, payload) => {
    const answer = await rest(who, method, url, payload);
    if (answer.status !== status)
      throw new Error(
        `${method} ${url}: expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`,
      );
    return answer;
  };
  return {
    rest,
    expectStatus,
    async expectOk(answer, status = 200) {
      const { status: got, body } = await answer;
      if (got !== status) throw new Error(`expected ${status}, got ${got}: ${JSON.stringify(body)}`);
      return body;
    },
    async putHostPolicy(stdioCommands) {
      await expectStatus(options.admin, 'PUT', '/v1/host-policy', 200, {
        stdioCommands: stdioCommands.map((argv) => [...argv]),
        headerHelpers: [],
        privateCidrs: [],
        traceContextOrigins: [],
        fourEyes: false,
      });
    },
    async defineServers(who, tier, mcpServers, name = 'gateway') {
      await expectStatus(who, 'PUT', '/v1/definition-sources', 200, {
        tier,
        ...(tier === 'managed' ? { name } : {}),
        document: { mcpServers },
      });
    },
    async approve(serverName, view = 'workspace', asker = options.admin) {
      const opened = await expectStatus(
        asker,
        'POST',
        `/v1/workspaces/${workspaceId}/approval-requests`,
        201,
        {
          serverName,
          view,
        },
      );
      const identity = opened.body.identity as { key: string; definitionFingerprint: string };
      const decided = await expectStatus(
        options.approver,
        'POST',
        `/v1/approval-requests/${opened.body.id as string}/decision`,
        201,
        {
          decision: 'approve',
          seenFingerprint: identity.definitionFingerprint,
          seenIdentityKey: identity.key,
        },
      );
      return { approvalId: decided.body.id as string, fingerprint: identity.definitionFingerprint };
    },
    async discoverAndSubmit(serverName, principalUserId) {
      const issued = await expectStatus(options.worker, 'POST', '/v1/leases', 201, {
        workspaceId,
        serverName,
        ...(principalUserId !== undefined ? { principalUserId } : {}),
      });
      const lease = issued.body as {
        id: string;
        transport: { transport: unknown };
        source: { tier: 'managed'; origin: string };
      };
      const supervisor = superviseAdmitted(lease.transport.transport, {
        serverId: serverName,
        connect: {
          serverName,
          clientInfo: { name: options.discovery.clientName, version: '0.0.0' },
          defaultStartupTimeoutMs: 60_000,
          searchPath: options.discovery.searchPath,
          // The checkout may be out of other accounts' reach (a 0700 clone): the test's children run as itself.
          canSwitchUser: false,
          closeGraceMs: 500,
          stillAdmitted: () => true,
        },
        backoff: { maxAttempts: 1, baseMs: 0, maxMs: 0 },
      });
      try {
        const started = await supervisor.start();
        if (started !== 'ready' || supervisor.catalog === undefined)
          throw new Error(`discovery of ${serverName}: ${started}`);
        const document = catalogDocumentOf(supervisor.catalog, {
          source: lease.source,
          fetchedAt: new Date().toISOString(),
        });
        await expectStatus(options.worker, 'POST', `/v1/leases/${lease.id}/snapshot`, 201, { document });
        return document;
      } finally {
        await supervisor.close();
        await rest(options.worker, 'POST', `/v1/leases/${lease.id}/release`);
      }
    },
  };
}
