import {
  closeRedis,
  createRedisConnection,
  FencingLock,
  RedisChannelMultiplexer,
} from '@gatehouse/coordination';
import type { PinnedFetch } from '@gatehouse/egress';
import {
  createTestRedisPrefix,
  testRedisUrl,
  followSignIn,
  LoopbackDocuments,
  loopbackPinnedFetch,
  OidcProviderProcess,
  startLockHolderProcess,
  testEnvelopeCipher,
} from '@gatehouse/testing';
import type { Redis } from 'ioredis';
import { discoverAuthorization, type DiscoveredAuthorization } from '../discovery/authorization-discovery';
import { completeSignIn, type SignedIn } from '../sign-in/complete-sign-in';
import { RedisSignInStateStore } from '../sign-in/redis-sign-in-state.store';
import { startSignIn } from '../sign-in/start-sign-in';
import type { RegisteredClient } from '../tokens/client-authentication';
import { credentialKeyId } from './credential-key';
import { InMemoryTokenStore } from './test-support/in-memory-token.store';
import {
  RefreshCoordinator,
  type AccessTokenResult,
  type RefreshCoordinatorOptions,
} from './refresh-coordinator';

const REDIRECT_URI = 'https://gatehouse.test/oauth/callback';
const redisUrl = testRedisUrl();
const namespace = createTestRedisPrefix().replace(/:$/, '');
const connections: Redis[] = [];
const multiplexers: RedisChannelMultiplexer[] = [];
const connection = (purpose: 'command' | 'subscriber' = 'command'): Redis => {
  const created = createRedisConnection({
    url: redisUrl,
    name: `oauth-refresh-test-${connections.length}`,
    purpose,
  });
  connections.push(created);
  return created;
};

let provider: OidcProviderProcess;
let resourceServer: LoopbackDocuments;
let fetch: PinnedFetch;
let discovered: DiscoveredAuthorization;
let client: RegisteredClient;
const clientFor = async (issuer: string, clientId: string): Promise<RegisteredClient | null> =>
  issuer === client.issuer && clientId === client.clientId ? client : null;

beforeAll(async () => {
  [provider, resourceServer] = await Promise.all([
    OidcProviderProcess.start({
      clients: [
        {
          client_id: 'gatehouse-refresh-test',
          client_secret: 'refresh-test-secret-0123456789abcdef',
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
    clientId: 'gatehouse-refresh-test',
    clientSecret: 'refresh-test-secret-0123456789abcdef',
    tokenEndpointAuthMethod: 'client_secret_basic',
    kind: 'pre_registered',
  };
});

afterAll(async () => {
  await fetch.close();
  await Promise.all(multiplexers.map((multiplexer) => multiplexer.close()));
  const admin = connection();
  const keys = await admin.keys(`${namespace}:*`);
  if (keys.length > 0) await admin.del(...keys);
  await Promise.all(connections.map((open) => closeRedis(open)));
  await Promise.all([provider.stop(), resourceServer.stop()]);
});

beforeEach(() => provider.configure({ tokenDelayMs: 0 }));

let signIns = 0;
// A real sign-in at the provider (a fresh refresh token), stored with an access token that has expired.
async function expiredCredential(store: InMemoryTokenStore): Promise<SignedIn> {
  signIns += 1;
  const stateStore = new RedisSignInStateStore({
    connection: connection(),
    namespace,
    cipher: testEnvelopeCipher(),
  });
  const binding = { tenantId: 'tenant-1', userId: `user-${signIns}`, sessionId: 'session-1' };
  const started = await startSignIn(
    {
      discovered,
      client,
      binding,
      subject: { kind: 'user', userId: binding.userId },
      serverIdentity: 'server-identity-1',
      redirectUri: REDIRECT_URI,
      scope: 'mcp:tools',
    },
    { stateStore, now: Date.now },
  );
  if (!started.ok) throw new Error(started.reason);
  const redirect = await followSignIn(started.authorizationUrl, REDIRECT_URI);
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
  return signedIn;
}

// Coordinator instances as separate API processes would have them: each its own Redis connections.
function coordinators(
  count: number,
  store: InMemoryTokenStore,
  options: Partial<RefreshCoordinatorOptions> = {},
): RefreshCoordinator[] {
  return Array.from({ length: count }, () => {
    const multiplexer = new RedisChannelMultiplexer(connection('subscriber'));
    multiplexers.push(multiplexer);
    const lock = new FencingLock({ connection: connection(), namespace, releaseNotifications: multiplexer });
    return new RefreshCoordinator({ lock, store, fetch, clientFor, ...options });
  });
}

async function concurrently(
  instances: readonly RefreshCoordinator[],
  signedIn: SignedIn,
  calls: number,
): Promise<AccessTokenResult[]> {
  return Promise.all(
    Array.from({ length: calls }, (_, i) => instances[i % instances.length]!.getAccessToken(signedIn.key)),
  );
}

async function waitForStats(predicate: (tokenRequests: number) => boolean): Promise<void> {
  for (let i = 0; i < 2_000; i += 1) {
    if (predicate((await provider.stats()).tokenRequests)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('provider never saw the request');
}

// The race itself (many concurrent callers across instances, exactly one refresh grant, the rotated tokens stored)
// is proven end to end across three API processes in apps/api/src/oauth/refresh-across-api-processes.int-spec.ts;
// the cases here are the coordinator's edges.
describe('RefreshCoordinator: one refresh per credential across instances', () => {
  it('concurrent calls for one credential in one process read the store once, fresh or expired', async () => {
    // Each store read is a database transaction in the API: 50 callers of one process taking 50 of them at once
    // exhausted the pool under load (P2028, a refresh test's API process died of it). They share one read.
    class CountingStore extends InMemoryTokenStore {
      gets = 0;
      override get(key: Parameters<InMemoryTokenStore['get']>[0]) {
        this.gets += 1;
        return super.get(key);
      }
    }
    const store = new CountingStore();
    const signedIn = await expiredCredential(store);
    const [instance] = coordinators(1, store);
    store.gets = 0;
    const expired = await concurrently([instance!], signedIn, 50);
    expect(expired.every((result) => result.ok)).toBe(true);
    expect(store.gets).toBe(1 + 1); // the shared read, and the refresh's own read under its lock
    store.gets = 0;
    const fresh = await concurrently([instance!], signedIn, 50);
    expect(fresh.every((result) => result.ok)).toBe(true);
    expect(store.gets).toBe(1);
  });

  it('a holder killed (SIGKILL, another process) before sending: another completes once its lock expires', async () => {
    const store = new InMemoryTokenStore();
    const signedIn = await expiredCredential(store);
    const holder = await startLockHolderProcess({
      redisUrl,
      namespace,
      resource: `oauth-refresh:${credentialKeyId(signedIn.key)}`,
      ttlMs: 500,
    });
    const instances = coordinators(3, store, { lockTtlMs: 500, grantTimeoutMs: 2_000, waitMs: 20_000 });
    const before = await provider.stats();
    const calls = concurrently(instances, signedIn, 50);
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    const results = await calls;
    expect(results.every((result) => result.ok)).toBe(true);
    expect((await provider.stats()).refreshGrants - before.refreshGrants).toBe(1);
  });

  it('a token endpoint slower than the lock’s lease: still one grant, and every caller gets its result', async () => {
    const store = new InMemoryTokenStore();
    const signedIn = await expiredCredential(store);
    await provider.configure({ tokenDelayMs: 1_200 });
    const instances = coordinators(3, store, { lockTtlMs: 300, grantTimeoutMs: 3_000, leaseMarginMs: 500 });
    const before = await provider.stats();
    const results = await concurrently(instances, signedIn, 50);
    expect((await provider.stats()).tokenRequests - before.tokenRequests).toBe(1);
    expect(results.every((result) => result.ok)).toBe(true);
  });

  it('a grant past its own deadline: the refresh token is never sent again; the credential needs sign-in', async () => {
    const store = new InMemoryTokenStore();
    const signedIn = await expiredCredential(store);
    await provider.configure({ tokenDelayMs: 1_500 });
    const instances = coordinators(3, store, { lockTtlMs: 300, grantTimeoutMs: 400, leaseMarginMs: 200 });
    const before = await provider.stats();
    const results = await concurrently(instances, signedIn, 20);
    expect(results.every((result) => !result.ok && result.reason === 'needs_sign_in')).toBe(true);
    // Later calls, once the lock is long free, do not send the refresh token a second time.
    await provider.configure({ tokenDelayMs: 0 });
    expect(await instances[1]!.getAccessToken(signedIn.key)).toEqual({ ok: false, reason: 'needs_sign_in' });
    expect((await provider.stats()).tokenRequests - before.tokenRequests).toBe(1);
    expect((await store.get(signedIn.key))?.tokens).toBeNull();
  });

  it('a refused refresh never clears tokens someone else wrote meanwhile (compare-and-swap)', async () => {
    const store = new InMemoryTokenStore();
    const signedIn = await expiredCredential(store);
    // Spend the refresh token once, so the coordinator's refresh is refused (invalid_grant).
    const [first] = coordinators(1, store);
    expect((await first!.getAccessToken(signedIn.key)).ok).toBe(true);
    const spent = await store.get(signedIn.key);
    await store.set(
      signedIn.key,
      {
        ...spent!,
        tokens: { ...spent!.tokens!, refreshToken: signedIn.tokens.refreshToken, expiresAt: Date.now() - 1 },
      },
      spent!.version,
    );
    await provider.configure({ tokenDelayMs: 500 });
    const before = (await provider.stats()).tokenRequests;
    const [coordinator] = coordinators(1, store);
    const refreshing = coordinator!.getAccessToken(signedIn.key);
    await waitForStats((requests) => requests > before);
    // Meanwhile a new sign-in writes fresh tokens.
    const marked = await store.get(signedIn.key);
    expect(marked?.status).toBe('refresh_in_flight');
    const fresh = {
      accessToken: 'fresh-access',
      refreshToken: 'fresh-refresh',
      expiresAt: Date.now() + 3_600_000,
      scope: null,
    };
    await store.set(
      signedIn.key,
      { ...marked!, status: 'active', tokens: fresh, refreshFencingToken: null },
      marked!.version,
    );
    const result = await refreshing;
    expect(result).toEqual(expect.objectContaining({ ok: true, accessToken: 'fresh-access' }));
    expect((await store.get(signedIn.key))?.tokens).toEqual(fresh);
  });

  it('a holder that finds a refresh_in_flight mark left behind never sends that refresh token', async () => {
    const store = new InMemoryTokenStore();
    const signedIn = await expiredCredential(store);
    const current = await store.get(signedIn.key);
    // As a holder killed after marking (and maybe sending) would leave it.
    await store.set(
      signedIn.key,
      { ...current!, status: 'refresh_in_flight', refreshFencingToken: '7' },
      current!.version,
    );
    const before = (await provider.stats()).tokenRequests;
    const [coordinator] = coordinators(1, store);
    expect(await coordinator!.getAccessToken(signedIn.key)).toEqual({ ok: false, reason: 'needs_sign_in' });
    expect((await provider.stats()).tokenRequests).toBe(before);
  });
});
