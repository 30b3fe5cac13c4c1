// Which client Gatehouse signs in as at an authorization server, in MCP 2026-07-28's order of preference
// (dynamic registration is deprecated there): a pre-registered client, then a client ID metadata document
// Gatehouse serves at an https URL of its own (when the server advertises support), then dynamic
// registration (RFC 7591). Every registration is for one issuer and is looked up by that issuer exactly.
import type { PinnedFetch } from '@gatehouse/egress';
import type { DiscoveredAuthorization } from '../discovery/authorization-discovery';
import { parseUrl } from '../discovery/endpoint-security.policy';
import { postJson } from '../http/oauth-http';
import type { RegisteredClient, TokenEndpointAuthMethod } from '../tokens/client-authentication';
import type { ClientRegistrationStore } from './client-registration.port';
import { z } from 'zod';

export type ClientRegistrationRefusal =
  /** No pre-registered client, no usable metadata document, and no registration endpoint: nothing to guess. */
  | 'no_client_registration'
  /** The registration endpoint refused or answered with something unusable. */
  | 'registration_refused'
  | 'registration_endpoint_unreachable';

export type ClientRegistrationResult =
  | { readonly ok: true; readonly client: RegisteredClient }
  | { readonly ok: false; readonly reason: ClientRegistrationRefusal };

export interface ClientMetadata {
  readonly clientName: string;
  readonly redirectUris: readonly string[];
  /**
   * The https URL at which Gatehouse serves this client's metadata document (its client_id there). Absent:
   * this deployment serves none.
   */
  readonly clientIdMetadataDocumentUrl?: string;
}

export interface ResolveClientDependencies {
  readonly fetch: PinnedFetch;
  readonly store: ClientRegistrationStore;
  readonly signal?: AbortSignal;
}

const registrationResponseSchema = z.object({
  client_id: z.string().min(1).max(2_048),
  client_secret: z.string().min(1).max(4_096).optional(),
  token_endpoint_auth_method: z.string().max(64).optional(),
});

/**
 * What kind of client Gatehouse registers as: `web`, the OIDC default, a confidential-capable application on a
 * server whose redirect URIs are its own https callback (loopback http only under the operator's test-only
 * insecure loopback). `native` would be a desktop or mobile app with loopback or custom-scheme redirects.
 */
export const GATEHOUSE_APPLICATION_TYPE = 'web';

const AUTH_METHODS: ReadonlySet<string> = new Set(['none', 'client_secret_basic', 'client_secret_post']);

function authMethodOf(method: string | undefined, hasSecret: boolean): TokenEndpointAuthMethod | null {
  if (method === undefined) return hasSecret ? 'client_secret_basic' : 'none';
  return AUTH_METHODS.has(method) ? (method as TokenEndpointAuthMethod) : null;
}

function isHttpsUrl(text: string): boolean {
  const url = parseUrl(text);
  return url !== null && url.protocol === 'https:' && url.hash === '' && url.pathname !== '/';
}

export async function resolveClientRegistration(
  discovered: DiscoveredAuthorization,
  metadata: ClientMetadata,
  deps: ResolveClientDependencies,
): Promise<ClientRegistrationResult> {
  const { issuer } = discovered;
  const preRegistered = await deps.store.preRegistered(issuer);
  if (preRegistered && preRegistered.issuer === issuer) return { ok: true, client: preRegistered };

  const documentUrl = metadata.clientIdMetadataDocumentUrl;
  if (discovered.clientIdMetadataDocumentSupported && documentUrl !== undefined && isHttpsUrl(documentUrl))
    return {
      ok: true,
      client: {
        issuer,
        clientId: documentUrl,
        clientSecret: null,
        tokenEndpointAuthMethod: 'none',
        kind: 'client_id_metadata_document',
      },
    };

  const remembered = await deps.store.dynamicRegistration(issuer);
  if (remembered && remembered.issuer === issuer) return { ok: true, client: remembered };
  if (discovered.registrationEndpoint === null) return { ok: false, reason: 'no_client_registration' };

  const answer = await postJson(
    deps.fetch,
    discovered.registrationEndpoint,
    {
      client_name: metadata.clientName,
      // OIDC Dynamic Client Registration / MCP 2026-07-28: a server-side web application (its redirect is the
      // API's https callback, the browser only passes through it), never `native` (decision 0103).
      application_type: GATEHOUSE_APPLICATION_TYPE,
      redirect_uris: metadata.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: discovered.tokenEndpointAuthMethods.includes('client_secret_basic')
        ? 'client_secret_basic'
        : 'none',
    },
    deps.signal,
  );
  if (!answer.ok)
    return {
      ok: false,
      reason: answer.reason === 'not_json' ? 'registration_refused' : 'registration_endpoint_unreachable',
    };
  if (answer.status !== 201 && answer.status !== 200) return { ok: false, reason: 'registration_refused' };
  const parsed = registrationResponseSchema.safeParse(answer.body);
  if (!parsed.success) return { ok: false, reason: 'registration_refused' };
  const secret = parsed.data.client_secret ?? null;
  const method = authMethodOf(parsed.data.token_endpoint_auth_method, secret !== null);
  if (method === null || (method !== 'none' && secret === null))
    return { ok: false, reason: 'registration_refused' };
  const client: RegisteredClient = {
    issuer,
    clientId: parsed.data.client_id,
    clientSecret: secret,
    tokenEndpointAuthMethod: method,
    kind: 'dynamic',
  };
  await deps.store.saveDynamicRegistration(client);
  return { ok: true, client };
}
