import { randomUUID } from 'node:crypto';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import type { PinnedFetch } from '@gatehouse/egress';
import {
  createTestRedisPrefix,
  testRedisUrl,
  followSignIn,
  LoopbackDocuments,
  loopbackPinnedFetch,
  OidcProviderProcess,
  testEnvelopeCipher,
} from '@gatehouse/testing';
import type { ClientRegistrationStore } from '../clients/client-registration.port';
import { resolveClientRegistration } from '../clients/client-registration';
import { discoverAuthorization, type DiscoveredAuthorization } from '../discovery/authorization-discovery';
import type { RegisteredClient } from '../tokens/client-authentication';
import { completeSignIn, type CompleteSignInResult } from './complete-sign-in';
import { RedisSignInStateStore } from './redis-sign-in-state.store';
import type { SignInBinding } from './sign-in-state.port';
import { signInStateId, startSignIn } from './start-sign-in';

const REDIRECT_URI = 'https://gatehouse.test/oauth/callback';
const CLIENT_SECRET = 'pre-registered-secret-value-0123456789';
const redis = createRedisConnection({ url: testRedisUrl(), name: 'oauth-sign-in-test', purpose: 'command' });
const namespace = createTestRedisPrefix().replace(/:$/, '');
const stateStore = new RedisSignInStateStore({ connection: redis, namespace, cipher: testEnvelopeCipher() });
const binding: SignInBinding = { tenantId: 'tenant-1', userId: 'user-1', sessionId: 'session-1' };

let provider: OidcProviderProcess;
let resourceServer: LoopbackDocuments;
let fetch: PinnedFetch;
let discovered: DiscoveredAuthorization;
let preRegistered: RegisteredClient;
let clock = Date.now();
const now = (): number => clock;

class MemoryClientStore implements ClientRegistrationStore {
  readonly dynamic = new Map<string, RegisteredClient>();
  constructor(private readonly configured: readonly RegisteredClient[]) {}
  async preRegistered(issuer: string): Promise<RegisteredClient | null> {
    return this.configured.find((client) => client.issuer === issuer) ?? null;
  }
  async dynamicRegistration(issuer: string): Promise<RegisteredClient | null> {
    return this.dynamic.get(issuer) ?? null;
  }
  async saveDynamicRegistration(client: RegisteredClient): Promise<void> {
    this.dynamic.set(client.issuer, client);
  }
}

beforeAll(async () => {
  [provider, resourceServer] = await Promise.all([
    OidcProviderProcess.start({
      clients: [
        {
          client_id: 'gatehouse-test',
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
  if (!result.ok) throw new Error(`discovery failed: ${result.reason}`);
  discovered = result.discovered;
  preRegistered = {
    issuer: provider.issuer,
    clientId: 'gatehouse-test',
    clientSecret: CLIENT_SECRET,
    tokenEndpointAuthMethod: 'client_secret_basic',
    kind: 'pre_registered',
  };
});

afterAll(async () => {
  await fetch.close();
  await closeRedis(redis);
  await Promise.all([provider.stop(), resourceServer.stop()]);
});

const clientFor = async (issuer: string, clientId: string): Promise<RegisteredClient | null> =>
  issuer === preRegistered.issuer && clientId === preRegistered.clientId ? preRegistered : null;

async function signInRedirect(client: RegisteredClient = preRegistered): Promise<string> {
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
    { stateStore, now },
  );
  if (!started.ok) throw new Error(started.reason);
  const url = new URL(started.authorizationUrl);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('resource')).toBe(discovered.resource);
  return followSignIn(started.authorizationUrl, REDIRECT_URI);
}

const complete = (
  redirect: string,
  who: SignInBinding = binding,
  registry = clientFor,
): Promise<CompleteSignInResult> =>
  completeSignIn({ redirect, binding: who }, { fetch, stateStore, clientFor: registry, now });

function withParam(redirect: string, name: string, value: string | null): string {
  const url = new URL(redirect);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return url.href;
}

describe('authorization code sign-in with PKCE, resource and RFC 9207 iss', () => {
  it('signs in: the code redeemed once, tokens for the resource, a refresh token issued', async () => {
    const redirect = await signInRedirect();
    expect(new URL(redirect).searchParams.get('iss')).toBe(provider.issuer);
    const result = await complete(redirect);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.signedIn.key).toEqual({
      tenantId: 'tenant-1',
      subject: { kind: 'user', userId: 'user-1' },
      serverIdentity: 'server-identity-1',
      resource: discovered.resource,
      issuer: provider.issuer,
    });
    expect(result.signedIn.tokens.accessToken).toEqual(expect.any(String));
    expect(result.signedIn.tokens.refreshToken).toEqual(expect.any(String));
    expect(result.signedIn.tokenEndpoint).toBe(discovered.tokenEndpoint);
  });

  it('refuses a replayed redirect (the state is single-use)', async () => {
    const redirect = await signInRedirect();
    expect((await complete(redirect)).ok).toBe(true);
    expect(await complete(redirect)).toEqual({ ok: false, reason: 'state_unknown' });
  });

  it('refuses a redirect presented by another session, user or tenant, and spends its state', async () => {
    const redirect = await signInRedirect();
    expect(await complete(redirect, { ...binding, sessionId: 'session-2' })).toEqual({
      ok: false,
      reason: 'state_binding_mismatch',
    });
    expect(await complete(redirect)).toEqual({ ok: false, reason: 'state_unknown' });
    const other = await signInRedirect();
    expect(await complete(other, { ...binding, tenantId: 'tenant-2' })).toEqual({
      ok: false,
      reason: 'state_binding_mismatch',
    });
  });

  it('refuses an expired state', async () => {
    const redirect = await signInRedirect();
    const started = clock;
    clock += 10 * 60_000;
    try {
      expect(await complete(redirect)).toEqual({ ok: false, reason: 'state_expired' });
    } finally {
      clock = started;
    }
  });

  it('refuses a redirect with no state, or one never issued', async () => {
    const redirect = await signInRedirect();
    expect(await complete(withParam(redirect, 'state', null))).toEqual({
      ok: false,
      reason: 'state_missing',
    });
    expect(await complete(withParam(redirect, 'state', 'never-issued-state-value-00000000'))).toEqual({
      ok: false,
      reason: 'state_unknown',
    });
  });

  it('refuses iss wrong, missing where advertised, or normalized differently, before redeeming the code', async () => {
    const before = await provider.stats();
    const wrong = await signInRedirect();
    expect(await complete(withParam(wrong, 'iss', 'http://127.0.0.1:1'))).toEqual({
      ok: false,
      reason: 'iss_mismatch',
    });
    const missing = await signInRedirect();
    expect(await complete(withParam(missing, 'iss', null))).toEqual({ ok: false, reason: 'iss_missing' });
    const normalized = await signInRedirect();
    expect(await complete(withParam(normalized, 'iss', `${provider.issuer}/`))).toEqual({
      ok: false,
      reason: 'iss_mismatch',
    });
    const upperCase = await signInRedirect();
    expect(await complete(withParam(upperCase, 'iss', provider.issuer.toUpperCase()))).toEqual({
      ok: false,
      reason: 'iss_mismatch',
    });
    // None of those codes reached the token endpoint.
    expect((await provider.stats()).tokenRequests).toBe(before.tokenRequests);
  });

  it('refuses a redirect to another redirect URI than the sign-in’s own', async () => {
    const redirect = await signInRedirect();
    const moved = redirect.replace(
      'https://gatehouse.test/oauth/callback',
      'https://gatehouse.test/elsewhere',
    );
    expect(await complete(moved)).toEqual({ ok: false, reason: 'redirect_uri_mismatch' });
  });

  it('refuses to redeem with a registration of another issuer', async () => {
    const redirect = await signInRedirect();
    const otherIssuer = async (): Promise<RegisteredClient> => ({
      ...preRegistered,
      issuer: 'https://other.example',
    });
    expect(await complete(redirect, binding, otherIssuer)).toEqual({ ok: false, reason: 'client_mismatch' });
    expect(
      await startSignIn(
        {
          discovered,
          client: { ...preRegistered, issuer: 'https://other.example' },
          binding,
          subject: { kind: 'user', userId: 'user-1' },
          serverIdentity: 'server-identity-1',
          redirectUri: REDIRECT_URI,
        },
        { stateStore, now },
      ),
    ).toEqual({ ok: false, reason: 'client_issuer_mismatch' });
  });
});

describe('client registration order', () => {
  const metadata = { clientName: 'Gatehouse test', redirectUris: [REDIRECT_URI] };

  it('prefers the pre-registered client of exactly this issuer', async () => {
    const store = new MemoryClientStore([preRegistered]);
    expect(await resolveClientRegistration(discovered, metadata, { fetch, store })).toEqual({
      ok: true,
      client: preRegistered,
    });
  });

  it('then a client ID metadata document, only where the server advertises support', async () => {
    const store = new MemoryClientStore([]);
    const documentUrl = 'https://gatehouse.test/oauth/client.json';
    const withDocument = { ...metadata, clientIdMetadataDocumentUrl: documentUrl };
    const supported = { ...discovered, clientIdMetadataDocumentSupported: true };
    expect(await resolveClientRegistration(supported, withDocument, { fetch, store })).toEqual({
      ok: true,
      client: expect.objectContaining({ clientId: documentUrl, kind: 'client_id_metadata_document' }),
    });
  });

  it('then dynamic registration at the real server, remembered for that issuer only', async () => {
    const store = new MemoryClientStore([]);
    const first = await resolveClientRegistration(discovered, metadata, { fetch, store });
    expect(first).toEqual({
      ok: true,
      client: expect.objectContaining({ kind: 'dynamic', issuer: provider.issuer }),
    });
    const again = await resolveClientRegistration(discovered, metadata, { fetch, store });
    expect(again).toEqual(first);
    // A registration made for this issuer is not used for another.
    const otherIssuer = { ...discovered, issuer: `${provider.issuer}/other`, registrationEndpoint: null };
    expect(await resolveClientRegistration(otherIssuer, metadata, { fetch, store })).toEqual({
      ok: false,
      reason: 'no_client_registration',
    });
    // And a dynamically registered client can sign in.
    if (!first.ok) return;
    const redirect = await signInRedirect(first.client);
    const result = await complete(redirect, binding, async () => first.client);
    expect(result.ok).toBe(true);
  });
});

describe('the sign-in state in Redis keeps the PKCE verifier sealed (decision 0083)', () => {
  const verifier = 'v'.repeat(20) + 'known-verifier-value-for-this-test-0123';
  const record = {
    binding,
    subject: { kind: 'user', userId: binding.userId },
    serverIdentity: 'server-identity-1',
    resource: 'https://mcp.example.test/mcp',
    issuer: 'https://issuer.example.test',
    issParameterSupported: true,
    tokenEndpoint: 'https://issuer.example.test/token',
    revocationEndpoint: null,
    clientId: 'client-1',
    tokenEndpointAuthMethod: 'none',
    redirectUri: REDIRECT_URI,
    codeVerifier: verifier,
    expiresAt: Date.now() + 60_000,
  } as const;
  const keyOf = (stateId: string): string => `${namespace}:oauth-sign-in-state:${stateId}`;

  it('writes no verifier in plaintext, and gives it back to the one take', async () => {
    const stateId = signInStateId(`state-${randomUUID()}`);
    await stateStore.save(stateId, record, 60_000);
    const raw = await redis.get(keyOf(stateId));
    expect(raw).not.toBeNull();
    expect(raw).not.toContain(verifier);
    expect(Object.keys(JSON.parse(raw!) as object)).not.toContain('codeVerifier');
    expect(await stateStore.take(stateId)).toEqual(record);
    expect(await stateStore.take(stateId)).toBeNull();
  });

  it('a sealed verifier moved under another state id, or read for another tenant, does not open', async () => {
    const stateId = signInStateId(`state-${randomUUID()}`);
    await stateStore.save(stateId, record, 60_000);
    const raw = (await redis.get(keyOf(stateId)))!;
    const elsewhere = signInStateId(`state-${randomUUID()}`);
    await redis.set(keyOf(elsewhere), raw, 'PX', 60_000);
    expect(await stateStore.take(elsewhere)).toBeNull();
    const otherTenant = JSON.stringify({
      ...(JSON.parse(raw) as Record<string, unknown>),
      binding: { ...binding, tenantId: 'tenant-2' },
    });
    const third = signInStateId(`state-${randomUUID()}`);
    await redis.set(keyOf(third), otherTenant, 'PX', 60_000);
    expect(await stateStore.take(third)).toBeNull();
    expect(await stateStore.take(stateId)).toEqual(record);
  });

  it('a store with another key ring cannot open what this one sealed', async () => {
    const stateId = signInStateId(`state-${randomUUID()}`);
    await stateStore.save(stateId, record, 60_000);
    const stranger = new RedisSignInStateStore({
      connection: redis,
      namespace,
      cipher: testEnvelopeCipher(),
    });
    expect(await stranger.take(stateId)).toBeNull();
  });
});
