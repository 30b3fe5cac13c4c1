// One OAuth sign-in as a Gatehouse user would make it, through libs/oauth only: discovery that follows only
// checked links from the server's challenge, the client registration in MCP's order (a pre-registered client
// from the scenario's context, Gatehouse's client ID metadata document URL, then dynamic registration, each
// for one issuer), authorization code with PKCE S256, `resource` and RFC 9207 `iss`, state single-use.
// The browser's part (the authorization server's redirects) is played by `followToRedirect`.
import type { PinnedFetch } from '@gatehouse/egress';
import {
  challengeScope,
  completeSignIn,
  discoverAuthorization,
  resolveClientRegistration,
  startSignIn,
  type ClientRegistrationStore,
  type DiscoveredAuthorization,
  type RegisteredClient,
  type SignInStateRecord,
  type SignInStateStore,
} from '@gatehouse/oauth';
import type { ConformanceContext } from './conformance-context.schema';
import { followToRedirect } from './follow-to-redirect';

export type { ConformanceContext } from './conformance-context.schema';

export type SignInOutcome =
  { readonly ok: true; readonly accessToken: string } | { readonly ok: false; readonly reason: string };

/** Where the authorization server sends the browser back (never served: the redirect is read, not visited). */
export const REDIRECT_URI = 'http://localhost:3000/callback';
/** The client ID metadata document URL (an https URL the deployment serves; here the one the suite's servers know). */
export const CLIENT_ID_METADATA_DOCUMENT_URL = 'https://conformance-test.local/client-metadata.json';

const BINDING = { tenantId: 'conformance', userId: 'conformance-user', sessionId: 'conformance-session' };

class MemorySignInStateStore implements SignInStateStore {
  private readonly records = new Map<string, SignInStateRecord>();
  save(stateId: string, record: SignInStateRecord): Promise<void> {
    this.records.set(stateId, record);
    return Promise.resolve();
  }
  take(stateId: string): Promise<SignInStateRecord | null> {
    const record = this.records.get(stateId) ?? null;
    this.records.delete(stateId);
    return Promise.resolve(record);
  }
}

// Registrations keyed by issuer exactly: a changed issuer (authorization-server-migration) finds nothing here.
class MemoryClientRegistrationStore implements ClientRegistrationStore {
  private readonly dynamic = new Map<string, RegisteredClient>();
  constructor(
    private readonly context: ConformanceContext,
    private readonly methodsOf: (issuer: string) => readonly string[],
  ) {}
  preRegistered(issuer: string): Promise<RegisteredClient | null> {
    const { client_id: clientId, client_secret: clientSecret } = this.context;
    if (clientId === undefined) return Promise.resolve(null);
    const methods = this.methodsOf(issuer);
    const method =
      clientSecret === undefined
        ? 'none'
        : methods.includes('client_secret_basic') || !methods.includes('client_secret_post')
          ? 'client_secret_basic'
          : 'client_secret_post';
    return Promise.resolve({
      issuer,
      clientId,
      clientSecret: clientSecret ?? null,
      tokenEndpointAuthMethod: method,
      kind: 'pre_registered',
    });
  }
  dynamicRegistration(issuer: string): Promise<RegisteredClient | null> {
    return Promise.resolve(this.dynamic.get(issuer) ?? null);
  }
  saveDynamicRegistration(client: RegisteredClient): Promise<void> {
    this.dynamic.set(client.issuer, client);
    return Promise.resolve();
  }
}

export class ConformanceSignIn {
  private readonly stateStore = new MemorySignInStateStore();
  private readonly discovered = new Map<string, DiscoveredAuthorization>();
  private readonly registrations: MemoryClientRegistrationStore;
  private readonly clients = new Map<string, RegisteredClient>();

  constructor(
    private readonly serverUrl: string,
    context: ConformanceContext,
    private readonly fetch: PinnedFetch,
  ) {
    this.registrations = new MemoryClientRegistrationStore(
      context,
      (issuer) => this.discovered.get(issuer)?.tokenEndpointAuthMethods ?? [],
    );
  }

  async signIn(challenge: string | null): Promise<SignInOutcome> {
    const discovery = await discoverAuthorization(
      { serverUrl: this.serverUrl, challenge },
      { fetch: this.fetch, allowInsecureLoopback: true },
    );
    if (!discovery.ok) return { ok: false, reason: `discovery refused: ${discovery.reason}` };
    const { discovered } = discovery;
    this.discovered.set(discovered.issuer, discovered);
    const registered = await resolveClientRegistration(
      discovered,
      {
        clientName: 'Gatehouse conformance client',
        redirectUris: [REDIRECT_URI],
        clientIdMetadataDocumentUrl: CLIENT_ID_METADATA_DOCUMENT_URL,
      },
      { fetch: this.fetch, store: this.registrations },
    );
    if (!registered.ok) return { ok: false, reason: `client registration refused: ${registered.reason}` };
    const { client } = registered;
    this.clients.set(`${client.issuer} ${client.clientId}`, client);
    // MCP's scope choice: the challenge's scope, else the resource's scopes_supported, else none at all.
    const scope = challengeScope(challenge) ?? discovered.resourceScopesSupported.join(' ');
    const started = await startSignIn(
      {
        discovered,
        client,
        binding: BINDING,
        subject: { kind: 'user', userId: BINDING.userId },
        serverIdentity: 'conformance',
        redirectUri: REDIRECT_URI,
        scope,
      },
      { stateStore: this.stateStore, now: Date.now },
    );
    if (!started.ok) return { ok: false, reason: `sign-in refused: ${started.reason}` };
    const redirect = await followToRedirect(started.authorizationUrl, REDIRECT_URI);
    if (redirect === null) return { ok: false, reason: 'authorization server sent no redirect' };
    const completed = await completeSignIn(
      { redirect, binding: BINDING },
      {
        fetch: this.fetch,
        stateStore: this.stateStore,
        clientFor: (issuer, clientId) => Promise.resolve(this.clients.get(`${issuer} ${clientId}`) ?? null),
        now: Date.now,
      },
    );
    if (!completed.ok) return { ok: false, reason: `sign-in refused: ${completed.reason}` };
    return { ok: true, accessToken: completed.signedIn.tokens.accessToken };
  }
}
