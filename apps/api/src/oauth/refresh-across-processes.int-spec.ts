// Refresh once (docs/architecture/oauth.md), over the real store: three RefreshCoordinators in three node
// processes, each on its own Redis connection, all over the Postgres token store (oauth_credentials) and one
// Redis, against oidc-provider with refresh token rotation on every use.
import { randomUUID } from 'node:crypto';
import { createDatabase, type Database } from '@gatehouse/db';
import {
  completeSignIn,
  discoverAuthorization,
  RedisSignInStateStore,
  startSignIn,
  type CredentialKey,
  type DiscoveredAuthorization,
  type RegisteredClient,
} from '@gatehouse/oauth';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import type { PinnedFetch } from '@gatehouse/egress';
import {
  createTestDatabase,
  createTestRedisPrefix,
  createTestTenant,
  createTestUser,
  TEST_DATABASE_TIMEOUT_MS,
  testRedisUrl,
  type TestDatabase,
  followSignIn,
  LoopbackDocuments,
  loopbackPinnedFetch,
  OidcProviderProcess,
  testEnvelopeCipher,
} from '@gatehouse/testing';
import type { Redis } from 'ioredis';
import { testKeyMaterial, testOAuthCipher } from './oauth-test.cipher';
import { PostgresTokenStore } from './postgres-token.store';
import { RefreshCoordinatorProcess, type RefreshChildConfig } from './testing/refresh-coordinator.process';

// Three child processes each compile their part of the libs through jiti before they can take part: under the
// full suite's parallel load that alone can pass a minute. The assertions count grants, never time.
jest.setTimeout(3 * TEST_DATABASE_TIMEOUT_MS);

const REDIRECT_URI = 'https://gatehouse.test/v1/oauth/callback';
const CLIENT_SECRET = 'multi-process-secret-0123456789abcdef';
const redisUrl = testRedisUrl();
const namespace = createTestRedisPrefix().replace(/:$/, '');
const keys = testKeyMaterial();

let testDb: TestDatabase;
let db: Database;
let store: PostgresTokenStore;
let redis: Redis;
let provider: OidcProviderProcess;
let resourceServer: LoopbackDocuments;
let fetch: PinnedFetch;
let discovered: DiscoveredAuthorization;
let client: RegisteredClient;
let tenantId: string;
const children: RefreshCoordinatorProcess[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl });
  store = new PostgresTokenStore(db, testOAuthCipher(keys));
  redis = createRedisConnection({ url: redisUrl, name: 'oauth-multi-process-test', purpose: 'command' });
  tenantId = (await createTestTenant(db)).id;
  [provider, resourceServer] = await Promise.all([
    OidcProviderProcess.start({
      clients: [
        {
          client_id: 'gatehouse-multi-process',
          client_secret: CLIENT_SECRET,
          redirect_uris: [REDIRECT_URI],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
    }),
    LoopbackDocuments.start(),
  ]);
  fetch = loopbackPinnedFetch();
  const serverUrl = `${resourceServer.origin}/mcp`;
  resourceServer.json('/.well-known/oauth-protected-resource/mcp', {
    resource: serverUrl,
    authorization_servers: [provider.issuer],
  });
  const result = await discoverAuthorization({ serverUrl }, { fetch, allowInsecureLoopback: true });
  if (!result.ok) throw new Error(result.reason);
  discovered = result.discovered;
  client = {
    issuer: provider.issuer,
    clientId: 'gatehouse-multi-process',
    clientSecret: CLIENT_SECRET,
    tokenEndpointAuthMethod: 'client_secret_basic',
    kind: 'pre_registered',
  };
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.stop()));
  await fetch?.close();
  const leftover = await redis.keys(`${namespace}:*`);
  if (leftover.length > 0) await redis.del(...leftover);
  await closeRedis(redis);
  await Promise.all([provider?.stop(), resourceServer?.stop()]);
  await db?.close();
  await testDb?.drop();
});

beforeEach(() => provider.configure({ tokenDelayMs: 0 }));

async function coordinators(count: number, overrides: Partial<RefreshChildConfig> = {}) {
  const started = await Promise.all(
    Array.from({ length: count }, () =>
      RefreshCoordinatorProcess.start({
        databaseUrl: testDb.appUrl,
        redisUrl,
        namespace,
        keys,
        client,
        lockTtlMs: 3_000,
        grantTimeoutMs: 2_000,
        leaseMarginMs: 500,
        ...overrides,
      }),
    ),
  );
  children.push(...started);
  return started;
}

// A real sign-in at the provider (a fresh refresh token), stored in oauth_credentials with an expired access token.
async function expiredCredential(): Promise<CredentialKey> {
  const userId = (await createTestUser(db, tenantId)).id;
  const stateStore = new RedisSignInStateStore({
    connection: redis,
    namespace,
    cipher: testEnvelopeCipher(keys),
  });
  const binding = { tenantId, userId, sessionId: randomUUID() };
  const started = await startSignIn(
    {
      discovered,
      client,
      binding,
      subject: { kind: 'user', userId },
      serverIdentity: `server-identity-${randomUUID()}`,
      redirectUri: REDIRECT_URI,
      scope: 'mcp:tools',
    },
    { stateStore, now: Date.now },
  );
  if (!started.ok) throw new Error(started.reason);
  const redirect = await followSignIn(started.authorizationUrl, REDIRECT_URI);
  const clientFor = async () => client;
  const completed = await completeSignIn(
    { redirect, binding },
    { fetch, stateStore, clientFor, now: Date.now },
  );
  if (!completed.ok) throw new Error(completed.reason);
  const { signedIn } = completed;
  const written = await store.set(
    signedIn.key,
    {
      status: 'active',
      tokens: { ...signedIn.tokens, expiresAt: Date.now() - 1_000 },
      tokenEndpoint: signedIn.tokenEndpoint,
      revocationEndpoint: signedIn.revocationEndpoint,
      clientId: signedIn.clientId,
      refreshFencingToken: null,
    },
    null,
  );
  if (!written.ok) throw new Error('store conflict');
  return signedIn.key;
}

/** Resolves once `count` requests have reached the provider's token endpoint (counted on arrival). */
async function tokenRequestsReach(count: number): Promise<void> {
  for (;;) {
    if ((await provider.stats()).tokenRequests >= count) return;
    await new Promise<void>((done) => setImmediate(done));
  }
}

describe('refresh once across three API processes (Postgres store, one Redis)', () => {
  it('50 concurrent calls on an expired token: exactly one refresh grant at the provider, no caller fails', async () => {
    const key = await expiredCredential();
    const processes = await coordinators(3);
    const before = await provider.stats();
    const answers = await Promise.all(
      [17, 17, 16].map((callers, i) => processes[i]!.getAccessToken(key, callers)),
    );
    const after = await provider.stats();
    expect(after.refreshGrants - before.refreshGrants).toBe(1);
    expect(after.tokenRequests - before.tokenRequests).toBe(1);
    expect(answers.map((a) => a.refusals)).toEqual([[], [], []]);
    expect(answers.reduce((sum, a) => sum + a.ok, 0)).toBe(50);
    // Everyone got the winner's token: one access token across the three processes.
    expect(new Set(answers.flatMap((a) => a.digests)).size).toBe(1);
    const stored = await store.get(key);
    expect(stored).toMatchObject({ status: 'active', refreshFencingToken: null });
    expect(stored?.tokens?.expiresAt).toBeGreaterThan(Date.now());
    await Promise.all(processes.map((p) => p.stop()));
  });

  it('a holder SIGKILLed after sending the grant: the credential ends in needs sign-in, the refresh token is never sent twice', async () => {
    const key = await expiredCredential();
    const [holder, next] = await coordinators(2);
    const before = await provider.stats();
    // The provider holds its answer long enough for the holder to die with the grant sent.
    await provider.configure({ tokenDelayMs: 4_000 });
    void holder!.getAccessToken(key, 1).catch(() => undefined);
    await tokenRequestsReach(before.tokenRequests + 1);
    await holder!.kill();
    await provider.configure({ tokenDelayMs: 0 });

    const answer = await next!.getAccessToken(key, 5);
    expect(answer).toMatchObject({ ok: 0, refusals: Array(5).fill('needs_sign_in') });
    expect((await provider.stats()).tokenRequests - before.tokenRequests).toBe(1);
    expect(await store.get(key)).toMatchObject({ status: 'needs_sign_in', tokens: null });
    // And it stays so: asking again sends nothing.
    await next!.getAccessToken(key, 3);
    expect((await provider.stats()).tokenRequests - before.tokenRequests).toBe(1);
    await next!.stop();
  });
});
