import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PinnedFetch } from '@gatehouse/egress';
import { loopbackPinnedFetch } from '@gatehouse/testing';
import type { DiscoveredAuthorization } from '../discovery/authorization-discovery';
import type { RegisteredClient } from '../tokens/client-authentication';
import type { ClientRegistrationStore } from './client-registration.port';
import { resolveClientRegistration } from './client-registration';

// The dynamic registration request (RFC 7591, as MCP 2026-07-28 still allows it last) against a loopback
// registration endpoint that records what it was sent: the metadata Gatehouse registers with, application_type
// included (decision 0103).

const REDIRECT_URI = 'https://gatehouse.example/v1/oauth/callback';

class EmptyClientStore implements ClientRegistrationStore {
  saved: RegisteredClient | null = null;
  async preRegistered(): Promise<RegisteredClient | null> {
    return null;
  }
  async dynamicRegistration(): Promise<RegisteredClient | null> {
    return null;
  }
  async saveDynamicRegistration(client: RegisteredClient): Promise<void> {
    this.saved = client;
  }
}

let server: Server;
let origin: string;
let fetch: PinnedFetch;
const received: { contentType: string | undefined; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        contentType: request.headers['content-type'],
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
      });
      response
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ client_id: 'registered-1', token_endpoint_auth_method: 'none' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fetch = loopbackPinnedFetch();
});

afterAll(async () => {
  await fetch?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function discovered(methods: readonly string[]): DiscoveredAuthorization {
  return {
    resource: 'https://mcp.example/mcp',
    issuer: origin,
    authorizationEndpoint: `${origin}/authorize`,
    tokenEndpoint: `${origin}/token`,
    registrationEndpoint: `${origin}/register`,
    revocationEndpoint: null,
    issParameterSupported: true,
    clientIdMetadataDocumentSupported: false,
    tokenEndpointAuthMethods: methods,
    scopesSupported: [],
    resourceScopesSupported: [],
  };
}

describe('dynamic client registration', () => {
  it('registers a web application: its redirect is the https callback of a server-side app', async () => {
    received.length = 0;
    const store = new EmptyClientStore();
    const result = await resolveClientRegistration(
      discovered(['none']),
      { clientName: 'Gatehouse', redirectUris: [REDIRECT_URI] },
      { fetch, store },
    );
    expect(result).toMatchObject({ ok: true, client: { clientId: 'registered-1', kind: 'dynamic' } });
    expect(received).toEqual([
      {
        contentType: expect.stringMatching(/^application\/json/),
        body: {
          client_name: 'Gatehouse',
          application_type: 'web',
          redirect_uris: [REDIRECT_URI],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
      },
    ]);
    expect(store.saved?.clientId).toBe('registered-1');
  });

  it('asks for client_secret_basic where the server offers it, still as a web application', async () => {
    received.length = 0;
    await resolveClientRegistration(
      discovered(['client_secret_basic', 'none']),
      { clientName: 'Gatehouse', redirectUris: [REDIRECT_URI] },
      { fetch, store: new EmptyClientStore() },
    );
    expect(received[0]?.body).toMatchObject({
      application_type: 'web',
      token_endpoint_auth_method: 'client_secret_basic',
    });
  });
});
