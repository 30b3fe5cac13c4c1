// Refresh once (docs/architecture/oauth.md), across API PROCESSES: three API processes from the build (dist
// main.js, as production runs them) on one Postgres and one Redis, leasing an OAuth-protected server whose
// access token has expired, against oidc-provider with refresh token rotation on every use. The lease path
// refreshes in the API (LeaseAccessTokens -> RefreshCoordinator: a Redis FencingLock + the Postgres version
// compare-and-swap). The assertions count grants at the provider, never time. An in-process API sets the
// world up (definitions, approvals, the sign-in).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { createDatabase, listOAuthCredentialsOfSubject, type Database } from '@gatehouse/db';
import { createFixedResolver } from '@gatehouse/egress';
import { credentialKeyId } from '@gatehouse/oauth';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestRedisPrefix,
  createTestTenant,
  createTestWorkspace,
  followSignIn,
  LoopbackDocuments,
  OidcProviderProcess,
  startLockHolderProcess,
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

// Three Nest processes boot on a machine shared with the rest of the suite: that alone can take a while.
jest.setTimeout(4 * TEST_DATABASE_TIMEOUT_MS);

const ROOT_DIR = resolve(__dirname, '../../../..');
const MAIN = join(ROOT_DIR, 'dist/apps/api/src/main.js');
const PUBLIC_URL = 'http://127.0.0.1:4000';
const REDIRECT_URI = `${PUBLIC_URL}/v1/oauth/callback`;
const KEY = randomBytes(32).toString('base64');
const PREFIX = createTestRedisPrefix();
const NAMESPACE = PREFIX.replace(/:+$/, '');
// Short leases, so a dead holder's lock is free within seconds; a grant deadline longer than the slow endpoint.
const LOCK_TTL_MS = 2_000;
const GRANT_TIMEOUT_MS = 6_000;

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let provider: OidcProviderProcess;
let resource: LoopbackDocuments;
let acme: TestTenant;
let workspaceId: string;
let admin: TestUser;
const tokens = { admin: '', approver: '', worker: '' };
const apis: ApiProcess[] = [];
/** The API processes' error lines (a failing assertion shows them). */
const errorLines: string[] = [];

interface ApiProcess {
  readonly child: ChildProcess;
  readonly port: number;
}

function env(port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '',
    NODE_ENV: 'test',
    // 'api listening' is an info line: how the test knows a process is up.
    LOG_LEVEL: 'info',
    API_PORT: String(port),
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: PREFIX,
    PUBLIC_URL,
    GATEHOUSE_KEYS: `k1:${KEY}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({ default: { tenants: '*', allowInsecureLoopback: true } }),
    OAUTH_REFRESH_LOCK_TTL_MS: String(LOCK_TTL_MS),
    OAUTH_REFRESH_GRANT_TIMEOUT_MS: String(GRANT_TIMEOUT_MS),
    OAUTH_REFRESH_LEASE_MARGIN_MS: '500',
    CATALOG_SWEEP_EVERY_MS: '0',
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** An API process as production runs it (the build's main.js), once it says it listens. */
async function startApi(): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: env(port),
  });
  const api = { child, port };
  apis.push(api);
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await new Promise<void>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`api exited early (${code}): ${output.slice(-2000)}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('api listening')) done();
    });
  });
  child.removeAllListeners('exit');
  child.stdout?.removeAllListeners('data');
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line.includes('"level":50')) errorLines.push(line);
  });
  return api;
}

async function stopApi(api: ApiProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (api.child.exitCode !== null || api.child.signalCode !== null) return;
  const exited = new Promise<void>((done) => api.child.once('exit', () => done()));
  api.child.kill(signal);
  await exited;
}

/** POST /v1/leases to one API process over HTTP (the worker's token); status and the lease's access token. */
function leaseOver(
  api: ApiProcess,
  userId: string,
): Promise<{ status: number; code: string | null; token: string | null }> {
  const body = JSON.stringify({ workspaceId, serverName: 'signed', principalUserId: userId });
  return new Promise((done, fail) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: api.port,
        method: 'POST',
        path: '/v1/leases',
        headers: {
          authorization: `Bearer ${tokens.worker}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            code?: string;
            transport?: { transport?: { oauth?: { accessToken: string } } };
          };
          done({
            status: response.statusCode ?? 0,
            code: parsed.code ?? null,
            token: parsed.transport?.transport?.oauth?.accessToken ?? null,
          });
        });
      },
    );
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

async function inProcess(who: keyof typeof tokens, method: 'POST' | 'PUT', url: string, payload: unknown) {
  const response = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run node scripts/build.mjs first`);
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  [provider, resource] = await Promise.all([
    OidcProviderProcess.start({ clients: [] }),
    LoopbackDocuments.start(),
  ]);
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.worker = await mintWorkerTestToken(db, acme, admin, {
    pool: 'default',
    name: 'worker default',
    scopes: ['leases:write'],
  });
  resource.json('/.well-known/oauth-protected-resource/signed', {
    resource: `${resource.origin}/signed`,
    authorization_servers: [provider.issuer],
  });
  const parsed = parseConfig(apiConfigSchema, { ...env(0), API_PORT: '4000' });
  if (!parsed.ok) throw new Error(parsed.message);
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'refresh-api-processes', level: 'silent' }),
    egressResolver: createFixedResolver({}),
  });
  const put = await inProcess('admin', 'PUT', '/v1/definition-sources', {
    tier: 'managed',
    name: 'oauth',
    document: {
      mcpServers: {
        signed: { type: 'http', url: `${resource.origin}/signed`, oauth: { scopes: ['mcp:tools'] } },
      },
    },
  });
  if (put.status !== 200) throw new Error(`source refused: ${JSON.stringify(put.body)}`);
  const opened = await inProcess('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
    serverName: 'signed',
    view: 'workspace',
  });
  const identity = opened.body.identity as { key: string; definitionFingerprint: string };
  const decided = await inProcess(
    'approver',
    'POST',
    `/v1/approval-requests/${opened.body.id as string}/decision`,
    {
      decision: 'approve',
      seenFingerprint: identity.definitionFingerprint,
      seenIdentityKey: identity.key,
    },
  );
  if (decided.status !== 201) throw new Error(`decision refused: ${JSON.stringify(decided.body)}`);
  await Promise.all([startApi(), startApi(), startApi()]);
}, 4 * TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(apis.map((api) => stopApi(api)));
  await app?.close();
  await Promise.all([provider?.stop(), resource?.stop()]);
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(() => provider.configure({ tokenDelayMs: 0 }));

/** A new person of the tenant signed in to the server (a fresh refresh token), with an expired access token. */
async function expiredSignIn(): Promise<{ userId: string; credentialId: string; lockResource: string }> {
  const person = await createMember(db, acme, 'member');
  const token = (await mintTestToken(db, acme, person, { kind: 'user' })).secret;
  const as = (method: 'POST', url: string, payload: unknown) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
  const started = await as('POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, { serverName: 'signed' });
  expect(started.statusCode).toBe(201);
  const redirectUrl = await followSignIn(
    (JSON.parse(started.body) as { authorizationUrl: string }).authorizationUrl,
    REDIRECT_URI,
  );
  const done = await as('POST', '/v1/oauth/sign-in/complete', { redirectUrl });
  expect(done.statusCode).toBe(200);
  const [row] = await db.withTenant(acme.id, (tx) =>
    listOAuthCredentialsOfSubject(tx, { kind: 'user', userId: person.id }),
  );
  await asSuperuser('UPDATE oauth_credentials SET expires_at = $1 WHERE id = $2', [
    new Date(Date.now() - 1_000),
    row!.id,
  ]);
  const lockResource = `oauth-refresh:${credentialKeyId({
    tenantId: acme.id,
    subject: { kind: 'user', userId: person.id },
    serverIdentity: row!.identity.serverIdentity,
    resource: row!.identity.resource,
    issuer: row!.identity.issuer,
  })}`;
  return { userId: person.id, credentialId: row!.id, lockResource };
}

async function asSuperuser(sql: string, params: unknown[]): Promise<void> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    await owner.query(sql, params);
  } finally {
    await owner.end();
  }
}

interface StoredCredential {
  status: string;
  expiresAt: Date | null;
  refreshFencingToken: string | null;
  hasAccessToken: boolean;
  hasRefreshToken: boolean;
}

/** The credential's row as the store left it (read as the superuser: no tenant context needed). */
async function storedCredential(credentialId: string): Promise<StoredCredential | undefined> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const result = await owner.query<StoredCredential>(
      `SELECT status, expires_at AS "expiresAt", refresh_fencing_token AS "refreshFencingToken",
              access_token_ct IS NOT NULL AS "hasAccessToken", refresh_token_ct IS NOT NULL AS "hasRefreshToken"
         FROM oauth_credentials WHERE id = $1`,
      [credentialId],
    );
    return result.rows[0];
  } finally {
    await owner.end();
  }
}

/** `count` concurrent leases spread over the live API processes. */
function concurrentLeases(count: number, userId: string, over: readonly ApiProcess[]) {
  return Promise.all(Array.from({ length: count }, (_, i) => leaseOver(over[i % over.length]!, userId)));
}

/** Resolves once `count` requests reached the provider's token endpoint (counted on arrival). */
async function tokenRequestsReach(count: number): Promise<void> {
  for (;;) {
    if ((await provider.stats()).tokenRequests >= count) return;
    await new Promise<void>((done) => setImmediate(done));
  }
}

const live = (): ApiProcess[] =>
  apis.filter((api) => api.child.exitCode === null && api.child.signalCode === null);

describe('one refresh across three API processes (refresh once)', () => {
  it('50 concurrent leases on an expired token: exactly one refresh grant reaches the provider, no caller fails', async () => {
    const { userId, credentialId } = await expiredSignIn();
    const before = await provider.stats();
    const answers = await concurrentLeases(50, userId, live());
    const after = await provider.stats();
    // The processes' error lines beside the statuses, so a failure says why.
    expect({ statuses: answers.map((answer) => answer.status), errors: errorLines }).toEqual({
      statuses: Array(50).fill(201),
      errors: [],
    });
    expect(after.refreshGrants - before.refreshGrants).toBe(1);
    expect(after.tokenRequests - before.tokenRequests).toBe(1);
    expect(new Set(answers.map((answer) => answer.token)).size).toBe(1);
    expect(answers[0]!.token).toEqual(expect.any(String));
    // The winner stored the new tokens and released its in-flight mark.
    const stored = await storedCredential(credentialId);
    expect(stored).toMatchObject({ status: 'active', refreshFencingToken: null, hasRefreshToken: true });
    expect(stored?.expiresAt?.getTime()).toBeGreaterThan(Date.now());

    // The provider rotates the refresh token on every use and refuses a spent one: a second refresh succeeding
    // proves the rotated token was stored (a store that kept the spent one would end in needs_sign_in).
    await asSuperuser('UPDATE oauth_credentials SET expires_at = $1 WHERE id = $2', [
      new Date(Date.now() - 1_000),
      credentialId,
    ]);
    const again = await concurrentLeases(6, userId, live());
    expect(again.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect((await provider.stats()).refreshGrants - after.refreshGrants).toBe(1);
    expect(new Set(again.map((answer) => answer.token)).size).toBe(1);
    expect(again[0]!.token).not.toBe(answers[0]!.token);
  });

  it('a holder killed (SIGKILL) before it sends: another process completes once the lock expires', async () => {
    const { userId, lockResource } = await expiredSignIn();
    const holder = await startLockHolderProcess({
      redisUrl: testRedisUrl(),
      namespace: NAMESPACE,
      resource: lockResource,
      ttlMs: 1_000,
    });
    const before = await provider.stats();
    const leasing = concurrentLeases(12, userId, live());
    const exited = new Promise((done) => holder.once('exit', done));
    holder.kill('SIGKILL');
    await exited;
    const answers = await leasing;
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(201));
    expect((await provider.stats()).refreshGrants - before.refreshGrants).toBe(1);
  });

  it('a token endpoint slower than the lock’s lease: still one grant, and every caller gets its result', async () => {
    const { userId } = await expiredSignIn();
    await provider.configure({ tokenDelayMs: LOCK_TTL_MS + 1_000 });
    const before = await provider.stats();
    const answers = await concurrentLeases(15, userId, live());
    expect((await provider.stats()).tokenRequests - before.tokenRequests).toBe(1);
    expect(answers.map((answer) => answer.status)).toEqual(Array(15).fill(201));
    expect(new Set(answers.map((answer) => answer.token)).size).toBe(1);
  });

  // Last: kills one of the three.
  it('an API process SIGKILLed after sending the grant: needs sign-in, the refresh token is never sent twice', async () => {
    const { userId, credentialId } = await expiredSignIn();
    const [victim, ...others] = live();
    const before = await provider.stats();
    // The provider holds its answer long enough for the holder to die with the grant sent.
    await provider.configure({ tokenDelayMs: 4_000 });
    void leaseOver(victim!, userId).catch(() => undefined);
    await tokenRequestsReach(before.tokenRequests + 1);
    await stopApi(victim!, 'SIGKILL');
    await provider.configure({ tokenDelayMs: 0 });

    const answers = await concurrentLeases(6, userId, others);
    expect(answers.map((answer) => [answer.status, answer.code])).toEqual(
      Array(6).fill([409, 'needs_sign_in']),
    );
    expect((await provider.stats()).tokenRequests - before.tokenRequests).toBe(1);
    // Both tokens are gone with it: nothing is left that could be sent again.
    expect(await storedCredential(credentialId)).toMatchObject({
      status: 'needs_sign_in',
      hasAccessToken: false,
      hasRefreshToken: false,
    });
    // And it stays so: asking again sends nothing.
    await concurrentLeases(3, userId, others);
    expect((await provider.stats()).tokenRequests - before.tokenRequests).toBe(1);
  });
});
