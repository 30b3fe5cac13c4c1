import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PinnedFetch } from '@gatehouse/egress';
import { LoopbackDocuments, loopbackPinnedFetch, OidcProviderProcess } from '@gatehouse/testing';
import { discoverAuthorization, type DiscoveryResult } from './authorization-discovery';

let provider: OidcProviderProcess;
let resourceServer: LoopbackDocuments;
let fakeAuthorizationServer: LoopbackDocuments;
let fetch: PinnedFetch;
let serverUrl: string;
const PRM_PATH = '/.well-known/oauth-protected-resource/mcp';

beforeAll(async () => {
  [provider, resourceServer, fakeAuthorizationServer] = await Promise.all([
    OidcProviderProcess.start({ clients: [] }),
    LoopbackDocuments.start(),
    LoopbackDocuments.start(),
  ]);
  fetch = loopbackPinnedFetch();
  serverUrl = `${resourceServer.origin}/mcp`;
});

afterAll(async () => {
  await fetch.close();
  await Promise.all([provider.stop(), resourceServer.stop(), fakeAuthorizationServer.stop()]);
});

beforeEach(() => {
  resourceServer.clear();
  fakeAuthorizationServer.clear();
});

const discover = (challenge?: string, allowInsecureLoopback = true): Promise<DiscoveryResult> =>
  discoverAuthorization({ serverUrl, challenge: challenge ?? null }, { fetch, allowInsecureLoopback });

// A fake authorization server's metadata: everything right unless a test breaks one field.
function fakeIssuerMetadata(overrides: Record<string, unknown> = {}): { issuer: string } {
  const issuer = `${fakeAuthorizationServer.origin}/tenant-a`;
  const document = {
    issuer,
    authorization_endpoint: `${fakeAuthorizationServer.origin}/tenant-a/authorize`,
    token_endpoint: `${fakeAuthorizationServer.origin}/tenant-a/token`,
    code_challenge_methods_supported: ['S256'],
    ...overrides,
  };
  fakeAuthorizationServer.json('/.well-known/oauth-authorization-server/tenant-a', document);
  resourceServer.json(PRM_PATH, { resource: serverUrl, authorization_servers: [issuer] });
  return { issuer };
}

describe('discoverAuthorization against the real authorization server', () => {
  it('follows the challenge link to the resource metadata and the issuer metadata, every link checked', async () => {
    resourceServer.json('/prm', { resource: serverUrl, authorization_servers: [provider.issuer] });
    const result = await discover(`Bearer realm="mcp", resource_metadata="${resourceServer.origin}/prm"`);
    expect(result).toEqual({
      ok: true,
      discovered: expect.objectContaining({
        resource: serverUrl,
        issuer: provider.issuer,
        authorizationEndpoint: `${provider.issuer}/auth`,
        tokenEndpoint: `${provider.issuer}/token`,
        revocationEndpoint: `${provider.issuer}/token/revocation`,
        registrationEndpoint: `${provider.issuer}/reg`,
        issParameterSupported: true,
      }),
    });
  });

  it('uses the RFC 9728 well-known location when the challenge has no link', async () => {
    resourceServer.json(PRM_PATH, { resource: serverUrl, authorization_servers: [provider.issuer] });
    const result = await discover('Bearer realm="mcp"');
    expect(result.ok).toBe(true);
  });
});

describe('discoverAuthorization refuses, one rule at a time', () => {
  it('a resource that is not this server (resource mismatch)', async () => {
    resourceServer.json(PRM_PATH, {
      resource: `${resourceServer.origin}/other`,
      authorization_servers: [provider.issuer],
    });
    expect(await discover()).toEqual({ ok: false, reason: 'resource_mismatch' });
    resourceServer.json(PRM_PATH, { resource: `${serverUrl}/`, authorization_servers: [provider.issuer] });
    expect(await discover()).toEqual({ ok: false, reason: 'resource_mismatch' });
  });

  it('metadata naming another issuer than the one it was fetched for (issuer mismatch)', async () => {
    fakeIssuerMetadata({ issuer: `${fakeAuthorizationServer.origin}/tenant-b` });
    expect(await discover()).toEqual({ ok: false, reason: 'issuer_mismatch' });
    // Normalized differently is another issuer too.
    fakeIssuerMetadata({ issuer: `${fakeAuthorizationServer.origin}/tenant-a/` });
    expect(await discover()).toEqual({ ok: false, reason: 'issuer_mismatch' });
  });

  it('a non-https endpoint that is not the operator’s test-only loopback', async () => {
    fakeIssuerMetadata({ token_endpoint: 'http://auth.example.com/token' });
    expect(await discover()).toEqual({ ok: false, reason: 'insecure_endpoint' });
  });

  it('plain http on loopback when the operator did not allow insecure loopback', async () => {
    resourceServer.json(PRM_PATH, { resource: serverUrl, authorization_servers: [provider.issuer] });
    expect(await discover(undefined, false)).toEqual({ ok: false, reason: 'insecure_endpoint' });
  });

  it('an authorization server that does not advertise S256 (or advertises nothing)', async () => {
    fakeIssuerMetadata({ code_challenge_methods_supported: ['plain'] });
    expect(await discover()).toEqual({ ok: false, reason: 'pkce_s256_not_supported' });
    fakeIssuerMetadata({ code_challenge_methods_supported: undefined });
    expect(await discover()).toEqual({ ok: false, reason: 'pkce_s256_not_supported' });
  });

  it('a cross-origin resource metadata link', async () => {
    fakeAuthorizationServer.json('/prm', { resource: serverUrl, authorization_servers: [provider.issuer] });
    const challenge = `Bearer resource_metadata="${fakeAuthorizationServer.origin}/prm"`;
    expect(await discover(challenge)).toEqual({ ok: false, reason: 'cross_origin_metadata_link' });
  });

  it('missing links: no authorization server, no token endpoint, no metadata at all (nothing guessed)', async () => {
    resourceServer.json(PRM_PATH, { resource: serverUrl });
    expect(await discover()).toEqual({ ok: false, reason: 'no_authorization_server' });

    fakeIssuerMetadata({ token_endpoint: undefined });
    expect(await discover()).toEqual({ ok: false, reason: 'missing_endpoint' });

    resourceServer.clear();
    expect(await discover()).toEqual({ ok: false, reason: 'resource_metadata_not_found' });

    // A protected resource naming an issuer that serves no metadata: no default /authorize or /token.
    resourceServer.json(PRM_PATH, {
      resource: serverUrl,
      authorization_servers: [`${fakeAuthorizationServer.origin}/nothing-here`],
    });
    expect(await discover()).toEqual({ ok: false, reason: 'authorization_server_metadata_not_found' });
  });
});

describe('discoverAuthorization moves past a location that has no document', () => {
  // A web framework's 404 page (HTML, not JSON) at a well-known location says "not here", like an empty 404:
  // the next candidate is tried (the conformance suite's auth/metadata-var1 and var2 serve exactly this).
  let pages: Server;
  let origin: string;
  let documents: Map<string, unknown>;

  beforeAll(async () => {
    documents = new Map();
    pages = createServer((request, response) => {
      const document = documents.get(new URL(request.url ?? '/', 'http://x').pathname);
      if (document === undefined) {
        response.writeHead(404, { 'content-type': 'text/html' }).end('<!DOCTYPE html><pre>Cannot GET</pre>');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    pages.closeAllConnections();
    await new Promise<void>((resolve) => pages.close(() => resolve()));
  });

  it('resource metadata at the root well-known location, issuer metadata at the OIDC location', async () => {
    const issuer = `${origin}/tenant1`;
    documents.set('/.well-known/oauth-protected-resource', {
      resource: `${origin}/mcp`,
      authorization_servers: [issuer],
      scopes_supported: ['mcp:basic'],
    });
    documents.set('/tenant1/.well-known/openid-configuration', {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      code_challenge_methods_supported: ['S256'],
    });
    const result = await discoverAuthorization(
      { serverUrl: `${origin}/mcp`, challenge: 'Bearer error="invalid_token"' },
      { fetch, allowInsecureLoopback: true },
    );
    expect(result).toEqual({
      ok: true,
      discovered: expect.objectContaining({
        issuer,
        tokenEndpoint: `${issuer}/token`,
        resourceScopesSupported: ['mcp:basic'],
      }),
    });
  });
});
