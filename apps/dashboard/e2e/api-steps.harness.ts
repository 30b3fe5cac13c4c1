import type { DashboardStack, Person } from './dashboard-stack.harness';

// The API-side steps the browser specs set their scene with, written once (as libs/testing's api-steps are for
// the API's, worker's and gateway's specs, decision 0121): a person signed in at the stack's API the way the
// dashboard signs in (session cookie and CSRF token, not a bearer token), and the few scenes more than one spec
// builds (a stdio-only HostPolicy, a worker token, an approval). Every assertion on what the dashboard shows
// stays in the spec.

export interface ApiAnswer {
  readonly status: number;
  /** The parsed JSON body; null when empty. */
  readonly body: unknown;
  readonly text: string;
  readonly etag: string | null;
}

export interface ApiSession {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer>;
}

/** Signs in at the API as `person` (the dashboard's own login path), for setting the scene. */
export async function apiSession(stack: DashboardStack, person: Person): Promise<ApiSession> {
  const login = await fetch(`${stack.apiUrl}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: person.email, password: person.password }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.getSetCookie().find((line) => line.startsWith('gh_session=')) ?? '').split(
    ';',
  )[0];
  const { csrfToken } = (await login.json()) as { csrfToken: string };
  return {
    async call(method, path, body, headers = {}) {
      const response = await fetch(`${stack.apiUrl}${path}`, {
        method,
        headers: {
          cookie: cookie ?? '',
          'x-csrf-token': csrfToken,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text === '' ? null : (JSON.parse(text) as unknown),
        text,
        etag: response.headers.get('etag'),
      };
    },
  };
}

/** The body of an answer, failing with it unless its status is the one given. */
export async function expectStatus<T = Record<string, unknown>>(
  pending: Promise<{ status: number; body: unknown }>,
  status: number,
): Promise<T> {
  const answer = await pending;
  expect({ status: answer.status, body: answer.body }).toMatchObject({ status });
  return answer.body as T;
}

/** The tenant's HostPolicy: exactly this stdio argv prefix, nothing else allowed, four-eyes off. */
export async function allowOnlyStdioCommand(api: ApiSession, argv: readonly string[]): Promise<void> {
  await expectStatus(
    api.call('PUT', '/v1/host-policy', {
      stdioCommands: [argv],
      headerHelpers: [],
      privateCidrs: [],
      traceContextOrigins: [],
      fourEyes: false,
    }),
    200,
  );
}

/** A worker token on `pool` with what the built worker needs (catalog, leases, snapshots, revocations). */
export async function mintWorkerToken(api: ApiSession, name: string, pool: string): Promise<string> {
  const minted = await expectStatus<{ secret: string }>(
    api.call('POST', '/v1/tokens', {
      name,
      kind: 'worker',
      scopes: ['catalog:read', 'leases:write', 'snapshots:write', 'revocations:read'],
      pool,
    }),
    201,
  );
  return minted.secret;
}

export interface OpenRequest {
  readonly id: string;
  readonly identity: {
    readonly serverName: string;
    readonly definitionFingerprint: string;
    readonly key: string;
    readonly principalUserId: string | null;
  };
}

/** The workspace's open approval requests (the API's default page of 50). */
export async function openRequests(api: ApiSession, workspaceId: string): Promise<OpenRequest[]> {
  const result = await api.call('GET', `/v1/approval-requests?status=open&workspaceId=${workspaceId}`);
  expect(result.status).toBe(200);
  return (result.body as { items: OpenRequest[] }).items;
}

/** Approves the server's open request on the fingerprint and identity it shows (and a reason, if given): its id. */
export async function approveOpenRequest(
  api: ApiSession,
  workspaceId: string,
  serverName: string,
  reason?: string,
): Promise<string> {
  const request = (await openRequests(api, workspaceId)).find(
    (item) => item.identity.serverName === serverName,
  );
  if (request === undefined) throw new Error(`no open request for ${serverName}`);
  const decided = await api.call('POST', `/v1/approval-requests/${request.id}/decision`, {
    decision: 'approve',
    seenFingerprint: request.identity.definitionFingerprint,
    seenIdentityKey: request.identity.key,
    reason,
  });
  expect(decided.status).toBe(201);
  return request.id;
}

/** Opens a review of the server in the workspace view and approves it on the fingerprint and identity it shows. */
export async function reviewAndApprove(
  api: ApiSession,
  workspaceId: string,
  serverName: string,
): Promise<void> {
  const opened = await expectStatus<{ id: string; identity: { key: string; definitionFingerprint: string } }>(
    api.call('POST', `/v1/workspaces/${workspaceId}/approval-requests`, { serverName, view: 'workspace' }),
    201,
  );
  await expectStatus(
    api.call('POST', `/v1/approval-requests/${opened.id}/decision`, {
      decision: 'approve',
      seenFingerprint: opened.identity.definitionFingerprint,
      seenIdentityKey: opened.identity.key,
    }),
    201,
  );
}
