// Leases of OAuth-protected servers (decision 0082) over the real API (Postgres, Redis)
// against oidc-provider on loopback: the lease carries the principal's own access token (refreshed in the API
// when expired, once), then the workspace's service credential where the definition allows shared use; never a
// refresh token; it ends no later than the token; no credential is a typed refusal by name.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
import { createDatabase, listOAuthCredentialsOfSubject, type Database } from '@gatehouse/db';
import { createFixedResolver } from '@gatehouse/egress';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  followSignIn,
  LoopbackDocuments,
  OidcProviderProcess,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createMember, mintTestToken, mintWorkerTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';
import { OAuthCipher } from '../oauth-credentials/oauth-cipher';
import { PostgresClientRegistrationStore } from '../oauth-credentials/postgres-client-registration.store';

jest.setTimeout(120_000);

const PUBLIC_URL = 'http://127.0.0.1:4000';
const REDIRECT_URI = `${PUBLIC_URL}/v1/oauth/callback`;
const KEY = randomBytes(32).toString('base64');
// The callback sends the browser on to the dashboard's Connections page (JSON without one: oauth-commands).
const DASHBOARD_URL = 'http://127.0.0.1:3000/';

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let provider: OidcProviderProcess;
let resource: LoopbackDocuments;
let acme: TestTenant;
let workspaceId: string;
const users: Record<'admin' | 'member' | 'other', TestUser> = {} as never;
const tokens = { admin: '', approver: '', member: '', other: '', worker: '' };
type Who = keyof typeof tokens;
const logLines: string[] = [];
const otherBodies: string[] = [];
const leaseBodies: string[] = [];

async function rest(who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const response = await app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  const isLease = url === '/v1/leases' && response.statusCode === 201;
  (isLease ? leaseBodies : otherBodies).push(response.body);
  return {
    status: response.statusCode,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

interface LeasedOAuth {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly accessToken: string | null;
  readonly tokenExpiresAt: string | null;
}

async function lease(
  serverName: string,
  principalUserId?: string,
  refusedAccessTokenSha256?: string,
): Promise<LeasedOAuth> {
  const answer = await rest('worker', 'POST', '/v1/leases', {
    workspaceId,
    serverName,
    ...(principalUserId ? { principalUserId } : {}),
    ...(refusedAccessTokenSha256 ? { refusedAccessTokenSha256 } : {}),
  });
  const transport = (answer.body.transport as { transport?: Record<string, unknown> } | undefined)?.transport;
  const oauth = transport?.oauth as { accessToken: string; expiresAt: string | null } | undefined;
  return { ...answer, accessToken: oauth?.accessToken ?? null, tokenExpiresAt: oauth?.expiresAt ?? null };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  [provider, resource] = await Promise.all([
    OidcProviderProcess.start({ clients: [] }),
    LoopbackDocuments.start(),
  ]);
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  users.admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  users.member = await createMember(db, acme, 'member');
  users.other = await createMember(db, acme, 'member');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, users.admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.member = (await mintTestToken(db, acme, users.member, { kind: 'user' })).secret;
  tokens.other = (await mintTestToken(db, acme, users.other, { kind: 'user' })).secret;
  tokens.worker = await mintWorkerTestToken(db, acme, users.admin, {
    pool: 'default',
    name: 'worker default',
    scopes: ['leases:write'],
  });

  for (const path of ['shared', 'personal'])
    resource.json(`/.well-known/oauth-protected-resource/${path}`, {
      resource: `${resource.origin}/${path}`,
      authorization_servers: [provider.issuer],
    });
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    PUBLIC_URL,
    DASHBOARD_URL,
    GATEHOUSE_KEYS: `k1:${KEY}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({ default: { tenants: '*', allowInsecureLoopback: true } }),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const buffer = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'oauth-leases-test', level: 'debug', destination: buffer }),
    egressResolver: createFixedResolver({}),
  });
  const put = await rest('admin', 'PUT', '/v1/definition-sources', {
    tier: 'managed',
    name: 'oauth',
    document: {
      mcpServers: {
        shared: {
          type: 'http',
          url: `${resource.origin}/shared`,
          oauth: { scopes: ['mcp:tools'], allowSharedCredential: true },
        },
        personal: { type: 'http', url: `${resource.origin}/personal`, oauth: { scopes: ['mcp:tools'] } },
      },
    },
  });
  if (put.status !== 200) throw new Error(`source refused: ${JSON.stringify(put.body)}`);
  for (const serverName of ['shared', 'personal']) await approve(serverName);
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await Promise.all([provider?.stop(), resource?.stop()]);
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

async function approve(serverName: string): Promise<void> {
  const opened = await rest('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
    serverName,
    view: 'workspace',
  });
  if (opened.status !== 201) throw new Error(`request refused: ${JSON.stringify(opened.body)}`);
  const identity = opened.body.identity as { key: string; definitionFingerprint: string };
  const decided = await rest(
    'approver',
    'POST',
    `/v1/approval-requests/${opened.body.id as string}/decision`,
    { decision: 'approve', seenFingerprint: identity.definitionFingerprint, seenIdentityKey: identity.key },
  );
  if (decided.status !== 201) throw new Error(`decision refused: ${JSON.stringify(decided.body)}`);
}

/** A whole sign-in as `who` (start, the browser stand-in, the pasted redirect): the credential view. */
async function signIn(who: Who, serverName: string): Promise<Record<string, unknown>> {
  const started = await rest(who, 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, { serverName });
  expect(started.status).toBe(201);
  const redirectUrl = await followSignIn(started.body.authorizationUrl as string, REDIRECT_URI);
  const done = await rest(who, 'POST', '/v1/oauth/sign-in/complete', { redirectUrl });
  expect(done.status).toBe(200);
  return done.body;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64url');

function cipher(): OAuthCipher {
  const ring = KeyRing.parse({ keys: `k1:${KEY}`, activeKeyId: 'k1' });
  if (!ring.ok) throw new Error('key ring');
  return new OAuthCipher(new EnvelopeCipher(ring.keyRing));
}

/** Every token stored for a subject, opened with the test's key. */
async function storedTokens(
  subject: { kind: 'user'; userId: string } | { kind: 'workspace'; workspaceId: string },
): Promise<{ id: string; accessToken: string | null; refreshToken: string | null; version: number }[]> {
  const opener = cipher();
  const rows = await db.withTenant(acme.id, (tx) => listOAuthCredentialsOfSubject(tx, subject));
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    accessToken: row.accessTokenCt && (opener.open('accessToken', row, row.accessTokenCt) ?? null),
    refreshToken: row.refreshTokenCt && (opener.open('refreshToken', row, row.refreshTokenCt) ?? null),
  }));
}

/** Time passing for one credential (no API moves an expiry), as the database's superuser. */
async function setExpiry(credentialId: string, expiresAt: Date): Promise<void> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    await owner.query('UPDATE oauth_credentials SET expires_at = $1 WHERE id = $2', [
      expiresAt,
      credentialId,
    ]);
  } finally {
    await owner.end();
  }
}

interface IssuerClient {
  readonly clientId: string;
  readonly issuer: string;
  readonly tokenEndpoint: string;
  readonly resource: string;
}

/** Where and as which client a credential refreshes, read as the database's superuser. */
async function issuerClientOf(credentialId: string): Promise<IssuerClient> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const { rows } = await owner.query<IssuerClient>(
      `SELECT client_id AS "clientId", issuer, token_endpoint AS "tokenEndpoint", resource
         FROM oauth_credentials WHERE id = $1`,
      [credentialId],
    );
    return rows[0]!;
  } finally {
    await owner.end();
  }
}

/** The OAuth error the issuer answers a refresh grant with this refresh token, as its registered client. */
async function refreshErrorAtIssuer(at: IssuerClient, refreshToken: string): Promise<string | undefined> {
  const client = await new PostgresClientRegistrationStore(db, cipher(), acme.id).byClientId(
    at.issuer,
    at.clientId,
  );
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    resource: at.resource,
    client_id: at.clientId,
  });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client?.clientSecret && client.tokenEndpointAuthMethod === 'client_secret_basic') {
    const pair = `${encodeURIComponent(at.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else if (client?.clientSecret) form.set('client_secret', client.clientSecret);
  const answer = await fetch(at.tokenEndpoint, { method: 'POST', headers, body: form });
  return ((await answer.json()) as { error?: string }).error;
}

async function auditData(action: string): Promise<Record<string, unknown>[]> {
  const page = await rest('admin', 'GET', `/v1/audit-events?action=${action}&limit=200`);
  expect(page.status).toBe(200);
  return (page.body.items as { data: Record<string, unknown> }[]).map((item) => item.data);
}

describe('leases of a server that declares OAuth', () => {
  it('without a sign-in: a typed refusal by name, for a person and for the workspace alone', async () => {
    const forMember = await lease('personal', users.member.id);
    expect(forMember.status).toBe(409);
    expect(forMember.body).toMatchObject({ code: 'needs_sign_in', authentication: 'oauth' });
    const forWorkspace = await lease('shared');
    expect(forWorkspace.status).toBe(409);
    expect(forWorkspace.body).toMatchObject({ code: 'needs_sign_in' });
    expect(await auditData('leases.refused')).toEqual(
      expect.arrayContaining([expect.objectContaining({ serverName: 'personal', code: 'needs_sign_in' })]),
    );
  });

  it("carries the principal's own access token, never a refresh token, and ends no later than the token", async () => {
    const view = await signIn('member', 'personal');
    const [stored] = await storedTokens({ kind: 'user', userId: users.member.id });
    expect(stored?.refreshToken).toBeTruthy();
    const issued = await lease('personal', users.member.id);
    expect(issued.status).toBe(201);
    expect(issued.accessToken).toBe(stored!.accessToken);
    expect(JSON.stringify(issued.body)).not.toContain(stored!.refreshToken!);
    expect(Date.parse(issued.body.expiresAt as string)).toBeLessThanOrEqual(
      Date.parse(issued.tokenExpiresAt!),
    );
    // Someone else's lease of the same server is not served by the member's sign-in.
    expect((await lease('personal', users.other.id)).status).toBe(409);

    // An access token that ends before the lease TTL: the lease ends with it, and renewing never lengthens it.
    const soon = new Date(Date.now() + 120_000);
    await setExpiry(view.id as string, soon);
    const short = await lease('personal', users.member.id);
    expect(short.status).toBe(201);
    expect(Date.parse(short.body.expiresAt as string)).toBe(soon.getTime());
    const renewed = await rest('worker', 'POST', `/v1/leases/${short.body.id as string}/renew`, {});
    expect(renewed.status).toBe(200);
    expect(Date.parse(renewed.body.expiresAt as string)).toBeLessThanOrEqual(soon.getTime());
    expect(await auditData('leases.issued')).toEqual(
      expect.arrayContaining([expect.objectContaining({ serverName: 'personal', oauthSubject: 'user' })]),
    );
  });

  it('an expired access token is refreshed in the API, once for concurrent leases, with rotation', async () => {
    const [before] = await storedTokens({ kind: 'user', userId: users.member.id });
    await setExpiry(before!.id, new Date(Date.now() - 1_000));
    const grants = (await provider.stats()).refreshGrants;
    const issued = await Promise.all(Array.from({ length: 10 }, () => lease('personal', users.member.id)));
    expect(issued.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect((await provider.stats()).refreshGrants - grants).toBe(1);
    const [after] = await storedTokens({ kind: 'user', userId: users.member.id });
    expect(after!.accessToken).not.toBe(before!.accessToken);
    expect(after!.refreshToken).not.toBe(before!.refreshToken);
    expect(new Set(issued.map((answer) => answer.accessToken))).toEqual(new Set([after!.accessToken]));
    for (const answer of issued) {
      expect(JSON.stringify(answer.body)).not.toContain(after!.refreshToken!);
      expect(Date.parse(answer.body.expiresAt as string)).toBeGreaterThan(Date.now());
    }
  });
});

describe('a lease after the server refused its token', () => {
  it('refreshes a refused token that is still stored, once for everyone refused together; any other digest changes nothing', async () => {
    const [before] = await storedTokens({ kind: 'user', userId: users.member.id });
    const grants = (await provider.stats()).refreshGrants;
    const other = await lease('personal', users.member.id, sha256('not the stored token'));
    expect(other.accessToken).toBe(before!.accessToken);
    expect((await provider.stats()).refreshGrants).toBe(grants);

    const refused = sha256(before!.accessToken!);
    const again = await Promise.all(
      Array.from({ length: 6 }, () => lease('personal', users.member.id, refused)),
    );
    expect(again.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect((await provider.stats()).refreshGrants - grants).toBe(1);
    const [after] = await storedTokens({ kind: 'user', userId: users.member.id });
    expect(after!.accessToken).not.toBe(before!.accessToken);
    expect(new Set(again.map((answer) => answer.accessToken))).toEqual(new Set([after!.accessToken]));
    // The same refusal reported late (the token was replaced meanwhile): no second refresh.
    expect((await lease('personal', users.member.id, refused)).accessToken).toBe(after!.accessToken);
    expect((await provider.stats()).refreshGrants - grants).toBe(1);
  });
});

describe('workspace service credentials (oauth.serviceCredential.choose, oauth.serviceCredentials.list, oauth.serviceCredential.signOut)', () => {
  it('is refused for a member, for a server that does not allow shared use, and for another person’s credential', async () => {
    const personal = (await storedTokens({ kind: 'user', userId: users.member.id }))[0]!;
    const byMember = await rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/service-credential`, {
      credentialId: personal.id,
    });
    expect(byMember.status).toBe(403);
    const adminPersonal = await signIn('admin', 'personal');
    const notShared = await rest('admin', 'POST', `/v1/workspaces/${workspaceId}/oauth/service-credential`, {
      credentialId: adminPersonal.id,
    });
    expect(notShared.status).toBe(409);
    expect(notShared.body.code).toBe('shared_use_not_allowed');
    const someoneElses = await rest(
      'admin',
      'POST',
      `/v1/workspaces/${workspaceId}/oauth/service-credential`,
      {
        credentialId: personal.id,
      },
    );
    expect(someoneElses.status).toBe(404);
  });

  it("moves an admin's sign-in to the workspace: it serves the workspace and people without their own, the principal's own first", async () => {
    const adminShared = await signIn('admin', 'shared');
    const [adminTokens] = (await storedTokens({ kind: 'user', userId: users.admin.id })).filter(
      (row) => row.id === adminShared.id,
    );
    const chosen = await rest('admin', 'POST', `/v1/workspaces/${workspaceId}/oauth/service-credential`, {
      credentialId: adminShared.id,
    });
    expect(chosen.status).toBe(201);
    expect(chosen.body).toMatchObject({ subject: 'workspace', workspaceId, state: 'signed_in' });
    // Moved, not copied: one holder of the rotating refresh token.
    const adminRows = await storedTokens({ kind: 'user', userId: users.admin.id });
    expect(adminRows.map((row) => row.id)).not.toContain(adminShared.id);
    const [service] = await storedTokens({ kind: 'workspace', workspaceId });
    expect(service).toMatchObject({
      accessToken: adminTokens!.accessToken,
      refreshToken: adminTokens!.refreshToken,
    });

    const forWorkspace = await lease('shared');
    expect(forWorkspace.status).toBe(201);
    expect(forWorkspace.accessToken).toBe(service!.accessToken);
    const forOther = await lease('shared', users.other.id);
    expect(forOther.accessToken).toBe(service!.accessToken);
    // A person with a sign-in of their own is served by it first.
    await signIn('member', 'shared');
    const own = (await storedTokens({ kind: 'user', userId: users.member.id })).map((row) => row.accessToken);
    const forMember = await lease('shared', users.member.id);
    expect(own).toContain(forMember.accessToken);
    expect(forMember.accessToken).not.toBe(service!.accessToken);
    // Never for a server that does not allow shared use.
    expect((await lease('personal', users.other.id)).status).toBe(409);
    expect(await auditData('oauth.service_credential_chosen')).toEqual([
      expect.objectContaining({ workspaceId, serverName: 'shared', movedFrom: adminShared.id }),
    ]);
  });

  it('admins list the workspace service credentials (words, never a token); members and other ids are refused', async () => {
    const [service] = await storedTokens({ kind: 'workspace', workspaceId });
    const listed = await rest('admin', 'GET', `/v1/workspaces/${workspaceId}/oauth/service-credentials`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      items: [
        expect.objectContaining({
          id: service!.id,
          subject: 'workspace',
          workspaceId,
          state: 'signed_in',
          issuer: provider.issuer,
          resource: `${resource.origin}/shared`,
          accessTokenExpiresAt: expect.any(String),
        }),
      ],
      nextCursor: null,
    });
    for (const secret of [service!.accessToken!, service!.refreshToken!])
      expect(JSON.stringify(listed.body)).not.toContain(secret);
    // A page of one past the end, and a cursor that is not ours.
    const paged = await rest(
      'admin',
      'GET',
      `/v1/workspaces/${workspaceId}/oauth/service-credentials?limit=1`,
    );
    expect(paged.body.nextCursor).toBeNull();
    const badCursor = await rest(
      'admin',
      'GET',
      `/v1/workspaces/${workspaceId}/oauth/service-credentials?cursor=x`,
    );
    expect({ status: badCursor.status, code: badCursor.body.code }).toEqual({
      status: 400,
      code: 'bad_cursor',
    });
    // Owners and admins only (workspaces:write), as choosing one is.
    const byMember = await rest('member', 'GET', `/v1/workspaces/${workspaceId}/oauth/service-credentials`);
    expect({ status: byMember.status, code: byMember.body.code }).toEqual({
      status: 403,
      code: 'forbidden_scope',
    });
    const unknown = await rest('admin', 'GET', `/v1/workspaces/${randomUUID()}/oauth/service-credentials`);
    expect(unknown.status).toBe(404);
  });

  it('members see that the workspace credential serves a server: their list for a workspace carries it, words only', async () => {
    const [service] = await storedTokens({ kind: 'workspace', workspaceId });
    const forWorkspace = await rest('member', 'GET', `/v1/oauth/credentials?workspaceId=${workspaceId}`);
    expect(forWorkspace.status).toBe(200);
    const items = forWorkspace.body.items as Record<string, unknown>[];
    expect(items.filter((item) => item.subject === 'workspace')).toEqual([
      {
        id: service!.id,
        subject: 'workspace',
        workspaceId,
        state: 'signed_in',
        issuer: provider.issuer,
        resource: `${resource.origin}/shared`,
        securityIdentity: expect.any(String),
        accessTokenExpiresAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    // Their own sign-ins come with it, as without a workspace, which lists no service credential.
    const own = await rest('member', 'GET', '/v1/oauth/credentials');
    expect((own.body.items as Record<string, unknown>[]).every((item) => item.subject === 'user')).toBe(true);
    expect(items.filter((item) => item.subject === 'user')).toEqual(own.body.items);
    for (const secret of [service!.accessToken!, service!.refreshToken!])
      expect(JSON.stringify(forWorkspace.body)).not.toContain(secret);
    // GraphQL asks the same read.
    const graphql = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${tokens.member}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        query: `{ oauthCredentials(input: { workspaceId: "${workspaceId}" }) { items { id subject } } }`,
      }),
    });
    expect(JSON.parse(graphql.body).data.oauthCredentials.items).toContainEqual({
      id: service!.id,
      subject: 'workspace',
    });
    // A workspace that is not there (or another tenant's) is 404, as everywhere.
    const unknown = await rest('member', 'GET', `/v1/oauth/credentials?workspaceId=${randomUUID()}`);
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'not_found' });
  });

  it('oauth.serviceCredential.signOut: deleted first, its leases ended through the ledger, revoked at the issuer, audited', async () => {
    const [service] = await storedTokens({ kind: 'workspace', workspaceId });
    const live = await lease('shared');
    expect(live.status).toBe(201);
    const signOutUrl = (id: string) =>
      `/v1/workspaces/${workspaceId}/oauth/service-credentials/${id}/sign-out`;
    // A person's credential is not the workspace's: not found, and still signed in.
    const [memberOwn] = await storedTokens({ kind: 'user', userId: users.member.id });
    expect((await rest('admin', 'POST', signOutUrl(memberOwn!.id), {})).status).toBe(404);
    expect((await storedTokens({ kind: 'user', userId: users.member.id })).map((row) => row.id)).toContain(
      memberOwn!.id,
    );
    expect((await rest('member', 'POST', signOutUrl(service!.id), {})).status).toBe(403);
    const issuerClient = await issuerClientOf(service!.id);

    const signedOut = await rest('admin', 'POST', signOutUrl(service!.id), {});
    expect(signedOut).toEqual({
      status: 200,
      body: { id: service!.id, state: 'signed_out', revokedAtIssuer: true },
    });
    expect(await storedTokens({ kind: 'workspace', workspaceId })).toEqual([]);
    // The lease that carried it ended in the same transaction (renew refuses it), and no new one is had.
    const renewed = await rest('worker', 'POST', `/v1/leases/${live.body.id as string}/renew`, {});
    expect({ status: renewed.status, code: renewed.body.code }).toEqual({ status: 409, code: 'lease_ended' });
    expect((await lease('shared')).body.code).toBe('needs_sign_in');
    // The issuer revoked the refresh token: a grant with it is refused there.
    expect(await refreshErrorAtIssuer(issuerClient, service!.refreshToken!)).toBe('invalid_grant');
    expect(await auditData('oauth.service_credential_signed_out')).toEqual([
      expect.objectContaining({ workspaceId, issuer: provider.issuer }),
    ]);
    expect((await rest('admin', 'POST', signOutUrl(service!.id), {})).status).toBe(404);
  });

  it('keeps every refresh token out of logs, responses, audit rows and leases; access tokens only in leases', async () => {
    const everyone = [
      ...(await storedTokens({ kind: 'user', userId: users.member.id })),
      ...(await storedTokens({ kind: 'user', userId: users.admin.id })),
      ...(await storedTokens({ kind: 'workspace', workspaceId })),
    ];
    const outside = [
      logLines.join(''),
      otherBodies.join(''),
      JSON.stringify(await auditData('leases.issued')),
    ];
    const leases = leaseBodies.join('');
    for (const row of everyone) {
      for (const text of outside) {
        if (row.refreshToken) expect(text).not.toContain(row.refreshToken);
        if (row.accessToken) expect(text).not.toContain(row.accessToken);
      }
      if (row.refreshToken) expect(leases).not.toContain(row.refreshToken);
    }
  });
});

describe('the callback with a dashboard URL configured', () => {
  it("sends the browser on to the dashboard's Connections page with ids and words only", async () => {
    const started = await rest('other', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, {
      serverName: 'personal',
    });
    expect(started.status).toBe(201);
    const redirect = new URL(await followSignIn(started.body.authorizationUrl as string, REDIRECT_URI));
    const callback = () =>
      app.inject({
        method: 'GET',
        url: `${redirect.pathname}${redirect.search}`,
        headers: { authorization: `Bearer ${tokens.other}` },
      });
    const done = await callback();
    expect(done.statusCode).toBe(303);
    expect(done.headers['cache-control']).toBe('no-store');
    expect(done.headers['referrer-policy']).toBe('no-referrer');
    const [own] = await storedTokens({ kind: 'user', userId: users.other.id });
    expect(done.headers.location).toBe(`http://127.0.0.1:3000/connections?signedIn=${own!.id}`);
    // The same redirect again: no sign-in waits for it; the dashboard is told the code, nothing else.
    const replay = await callback();
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe('http://127.0.0.1:3000/connections?signInError=not_found');
    for (const location of [done.headers.location, replay.headers.location])
      for (const leaked of [redirect.searchParams.get('code')!, redirect.searchParams.get('state')!])
        expect(String(location)).not.toContain(leaked);
  });

  it('sends a browser with no API session on to the dashboard, which finishes the sign-in with its own session', async () => {
    const started = await rest('other', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, {
      serverName: 'personal',
    });
    expect(started.status).toBe(201);
    const redirect = new URL(await followSignIn(started.body.authorizationUrl as string, REDIRECT_URI));
    // The dashboard's browser: no bearer, no gh_session.
    const handedOn = await app.inject({ method: 'GET', url: `${redirect.pathname}${redirect.search}` });
    expect(handedOn.statusCode).toBe(303);
    expect(handedOn.headers['cache-control']).toBe('no-store');
    expect(handedOn.headers['referrer-policy']).toBe('no-referrer');
    expect(handedOn.headers.location).toBe(`http://127.0.0.1:3000/connections/finish${redirect.search}`);
    // Nothing was spent: the session that started it finishes it once (what the dashboard's route does).
    const finished = await rest('other', 'POST', '/v1/oauth/sign-in/complete', {
      redirectUrl: redirect.href,
    });
    expect(finished.status).toBe(200);
    expect(finished.body.state).toBe('signed_in');
  });
});
