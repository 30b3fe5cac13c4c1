// oauth.signIn.start, .complete (REST and the callback route), oauth.credentials.list and oauth.signOut over the real API (Postgres, Redis) against oidc-provider on
// loopback, with the protected-resource metadata served by a loopback server, and the operator's pool allowing
// insecure loopback (test only). The authorization URL is followed by a browser stand-in up to the redirect.
import { randomBytes, randomUUID } from 'node:crypto';
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
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
  followSignIn,
  LoopbackDocuments,
  OidcProviderProcess,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createMember, mintTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';
import { OAuthCipher } from '../oauth-credentials/oauth-cipher';
import { PostgresClientRegistrationStore } from '../oauth-credentials/postgres-client-registration.store';

jest.setTimeout(120_000);

const PUBLIC_URL = 'http://127.0.0.1:4000';
const REDIRECT_URI = `${PUBLIC_URL}/v1/oauth/callback`;

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let provider: OidcProviderProcess;
let resource: LoopbackDocuments;
let acme: TestTenant;
let workspaceId: string;
const tokens = { member: '', agent: '', other: '' };
let memberId = '';
const KEY = randomBytes(32).toString('base64');
const logLines: string[] = [];
const bodies: string[] = [];

async function rest(
  who: keyof typeof tokens,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
) {
  const response = await app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  bodies.push(response.body);
  return {
    status: response.statusCode,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  [provider, resource] = await Promise.all([
    OidcProviderProcess.start({ clients: [] }),
    LoopbackDocuments.start(),
  ]);
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const member = await createMember(db, acme, 'member');
  memberId = member.id;
  const other = await createMember(db, acme, 'member');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.member = (await mintTestToken(db, acme, member, { kind: 'user' })).secret;
  tokens.other = (await mintTestToken(db, acme, other, { kind: 'user' })).secret;
  tokens.agent = (
    await mintTestToken(db, acme, admin, {
      kind: 'agent',
      scopes: ['catalog:read'],
      workspaceIds: [workspaceId],
    })
  ).secret;
  const adminToken = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;

  const serverUrl = `${resource.origin}/mcp`;
  resource.json('/.well-known/oauth-protected-resource/mcp', {
    resource: serverUrl,
    authorization_servers: [provider.issuer],
  });
  resource.json('/.well-known/oauth-protected-resource/other', {
    resource: `${resource.origin}/somewhere-else`,
    authorization_servers: [provider.issuer],
  });
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    PUBLIC_URL,
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
    logger: createLogger({ name: 'oauth-commands-test', level: 'debug', destination: buffer }),
    egressResolver: createFixedResolver({}),
  });
  const put = await app.inject({
    method: 'PUT',
    url: '/v1/definition-sources',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    payload: JSON.stringify({
      tier: 'managed',
      name: 'oauth',
      document: {
        mcpServers: {
          signin: { type: 'http', url: serverUrl, oauth: { scopes: ['openid'] } },
          mismatch: { type: 'http', url: `${resource.origin}/other`, oauth: {} },
          plain: { type: 'http', url: `${resource.origin}/plain` },
        },
      },
    }),
  });
  if (put.statusCode !== 200) throw new Error(`source refused: ${put.body}`);
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await Promise.all([provider?.stop(), resource?.stop()]);
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

async function auditRows(): Promise<string> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const result = await owner.query(
      'SELECT action, outcome, data::text AS data FROM audit_events ORDER BY seq',
    );
    return JSON.stringify(result.rows);
  } finally {
    await owner.end();
  }
}

describe('oauth.signIn.start', () => {
  it('discovers through checked links, registers a client for the issuer, and hands out a bound URL', async () => {
    const started = await rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, {
      serverName: 'signin',
    });
    expect(started.status).toBe(201);
    expect(started.body.issuer).toBe(provider.issuer);
    const url = new URL(started.body.authorizationUrl as string);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('resource')).toBe(`${resource.origin}/mcp`);
    const state = url.searchParams.get('state');
    expect(state).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // The real authorization server accepts it: the browser ends at our callback with a code.
    const redirected = new URL(await followSignIn(url.href, REDIRECT_URI));
    expect(redirected.searchParams.get('state')).toBe(state);
    expect(redirected.searchParams.get('code')).toBeTruthy();

    // One dynamic registration per issuer, reused by the next sign-in.
    const again = await rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, {
      serverName: 'signin',
    });
    expect(again.status).toBe(201);
    expect(new URL(again.body.authorizationUrl as string).searchParams.get('client_id')).toBe(
      url.searchParams.get('client_id'),
    );
    const audit = await auditRows();
    expect(audit).toContain('oauth.sign_in_started');
    expect(audit).not.toContain(state);
    expect(logLines.join('')).not.toContain(state);
  });

  it('refuses a server without OAuth, a resource mismatch, an unknown server, and callers that are not people', async () => {
    const plain = await rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, {
      serverName: 'plain',
    });
    expect(plain.status).toBe(409);
    expect(plain.body.code).toBe('oauth_not_declared');
    const mismatch = await rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, {
      serverName: 'mismatch',
    });
    expect(mismatch.status).toBe(502);
    expect(mismatch.body).toMatchObject({ code: 'oauth_discovery_refused', reason: 'resource_mismatch' });
    const unknown = await rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, {
      serverName: 'nope',
    });
    expect(unknown.status).toBe(404);
    const agent = await rest('agent', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, {
      serverName: 'signin',
    });
    expect(agent.status).toBe(403);
    expect(agent.body.code).toBe('forbidden_caller');
    expect(await auditRows()).toContain('oauth.sign_in_refused');
  });
});

describe('oauth.credentials.list', () => {
  it("lists only the caller's own credentials, as state words, never a token", async () => {
    const listed = await rest('other', 'GET', '/v1/oauth/credentials');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ items: [], nextCursor: null });
    const bad = await rest('other', 'GET', '/v1/oauth/credentials?cursor=xyz');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('bad_cursor');
  });
});

function testCipher(): OAuthCipher {
  const ring = KeyRing.parse({ keys: `k1:${KEY}`, activeKeyId: 'k1' });
  if (!ring.ok) throw new Error('key ring');
  return new OAuthCipher(new EnvelopeCipher(ring.keyRing));
}

/** The member's secrets as stored (opened with the test's key): what must never appear anywhere else. */
async function storedSecrets(): Promise<string[]> {
  const cipher = testCipher();
  const rows = await db.withTenant(acme.id, (tx) =>
    listOAuthCredentialsOfSubject(tx, { kind: 'user', userId: memberId }),
  );
  const secrets: string[] = [];
  for (const row of rows) {
    if (row.accessTokenCt) secrets.push(cipher.open('accessToken', row, row.accessTokenCt) ?? '');
    if (row.refreshTokenCt) secrets.push(cipher.open('refreshToken', row, row.refreshTokenCt) ?? '');
  }
  const client = await new PostgresClientRegistrationStore(db, cipher, acme.id).dynamicRegistration(
    provider.issuer,
  );
  if (client?.clientSecret) secrets.push(client.clientSecret);
  return secrets.filter((secret) => secret.length > 0);
}

/** Everything outside the ciphertext columns a secret could end up in. */
async function everywhereButCiphertexts(): Promise<string> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const credentials = await owner.query(
      "SELECT (to_jsonb(c) - 'access_token_ct' - 'refresh_token_ct')::text AS row FROM oauth_credentials c",
    );
    const clients = await owner.query(
      "SELECT (to_jsonb(o) - 'client_secret_ct')::text AS row FROM oauth_clients o",
    );
    const ledger = await owner.query('SELECT kind, subject::text AS subject FROM revocation_events');
    return JSON.stringify([credentials.rows, clients.rows, ledger.rows, await auditRows()]).concat(
      logLines.join(''),
      bodies.join(''),
    );
  } finally {
    await owner.end();
  }
}

async function signedOutEvents(): Promise<unknown[]> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const result = await owner.query<{ subject: unknown }>(
      "SELECT subject FROM revocation_events WHERE kind = 'oauth_signed_out' ORDER BY id",
    );
    return result.rows.map((row) => row.subject);
  } finally {
    await owner.end();
  }
}

/** Starts a sign-in as the member and plays the browser up to the redirect back to Gatehouse. */
async function redirectOfNewSignIn(): Promise<string> {
  const started = await rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, {
    serverName: 'signin',
  });
  expect(started.status).toBe(201);
  return followSignIn(started.body.authorizationUrl as string, REDIRECT_URI);
}

async function callback(who: keyof typeof tokens, redirect: string) {
  const url = new URL(redirect);
  const response = await app.inject({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: { authorization: `Bearer ${tokens[who]}` },
  });
  bodies.push(response.body);
  return {
    status: response.statusCode,
    headers: response.headers,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

describe('oauth.signIn.complete, the callback, and oauth.signOut', () => {
  it('signs in end to end on the callback (accepted once), lists it, signs out and revokes at the issuer', async () => {
    const redirect = await redirectOfNewSignIn();
    // Another person of the tenant presenting the redirect: no sign-in of theirs (and the state is spent).
    const stolen = await callback('other', redirect);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('not_found');
    const spent = await callback('member', redirect);
    expect(spent.status).toBe(404);

    const fresh = await redirectOfNewSignIn();
    const done = await callback('member', fresh);
    expect(done.status).toBe(200);
    expect(done.headers['cache-control']).toBe('no-store');
    expect(done.headers['referrer-policy']).toBe('no-referrer');
    expect(done.body).toMatchObject({ state: 'signed_in', issuer: provider.issuer, subject: 'user' });
    expect(Date.parse(done.body.accessTokenExpiresAt as string)).toBeGreaterThan(Date.now());
    const replay = await callback('member', fresh);
    expect(replay.status).toBe(404);
    expect(replay.body.code).toBe('not_found');

    const listed = await rest('member', 'GET', '/v1/oauth/credentials');
    expect(listed.status).toBe(200);
    const items = listed.body.items as Record<string, unknown>[];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      id: done.body.id,
      state: 'signed_in',
      issuer: provider.issuer,
      resource: `${resource.origin}/mcp`,
      accessTokenExpiresAt: done.body.accessTokenExpiresAt,
    });
    expect((await rest('other', 'GET', '/v1/oauth/credentials')).body.items).toEqual([]);

    const secrets = await storedSecrets();
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    // Another person cannot sign the member out.
    const foreign = await rest('other', 'POST', `/v1/oauth/credentials/${String(done.body.id)}/sign-out`, {});
    expect(foreign.status).toBe(404);

    const out = await rest('member', 'POST', `/v1/oauth/credentials/${String(done.body.id)}/sign-out`, {});
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ id: done.body.id, state: 'signed_out', revokedAtIssuer: true });
    expect((await rest('member', 'GET', '/v1/oauth/credentials')).body.items).toEqual([]);
    expect(await signedOutEvents()).toEqual([{ userId: memberId }]);
    const audit = await auditRows();
    expect(audit).toContain('oauth.signed_in');
    expect(audit).toContain('oauth.signed_out');

    const everywhere = await everywhereButCiphertexts();
    for (const secret of secrets) expect(everywhere).not.toContain(secret);
  });

  it('accepts a pasted redirect once; refusals by code; agents refused', async () => {
    const redirect = await redirectOfNewSignIn();
    const wrongIss = new URL(redirect);
    wrongIss.searchParams.set('iss', `${provider.issuer}/`);
    const refused = await rest('member', 'POST', '/v1/oauth/sign-in/complete', {
      redirectUrl: wrongIss.href,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'sign_in_refused', reason: 'iss_mismatch' });
    // That attempt spent the state: the genuine redirect is no sign-in any more.
    expect(
      (await rest('member', 'POST', '/v1/oauth/sign-in/complete', { redirectUrl: redirect })).status,
    ).toBe(404);

    const pasted = await redirectOfNewSignIn();
    const agent = await rest('agent', 'POST', '/v1/oauth/sign-in/complete', { redirectUrl: pasted });
    expect(agent.status).toBe(403);
    const done = await rest('member', 'POST', '/v1/oauth/sign-in/complete', { redirectUrl: pasted });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: 'signed_in', issuer: provider.issuer });
    const again = await rest('member', 'POST', '/v1/oauth/sign-in/complete', { redirectUrl: pasted });
    expect(again.status).toBe(404);
    expect(await auditRows()).toContain('iss_mismatch');
  });

  // Last: stops the authorization server.
  it('signs out with the issuer down: deleted first, nobody stays signed in', async () => {
    const listed = await rest('member', 'GET', '/v1/oauth/credentials');
    const items = listed.body.items as Record<string, unknown>[];
    expect(items).toHaveLength(1);
    const secrets = await storedSecrets();
    const before = (await signedOutEvents()).length;
    await provider.stop();

    const out = await rest('member', 'POST', `/v1/oauth/credentials/${String(items[0]!.id)}/sign-out`, {});
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ id: items[0]!.id, state: 'signed_out', revokedAtIssuer: false });
    expect((await rest('member', 'GET', '/v1/oauth/credentials')).body.items).toEqual([]);
    expect(await signedOutEvents()).toHaveLength(before + 1);
    const everywhere = await everywhereButCiphertexts();
    for (const secret of secrets) expect(everywhere).not.toContain(secret);
  });
});
