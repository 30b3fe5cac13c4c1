// Discovery that follows only checked links (the seed's "OAuth trusts only what it has
// checked"):
//   server URL --(401 challenge's resource_metadata, same origin; or the RFC 9728 well-known location)-->
//   protected-resource metadata, whose `resource` must be the server's canonical URI
//   --(its first authorization_servers entry)--> authorization server metadata at the RFC 8414 / OIDC
//   well-known locations of that issuer, whose `issuer` must be exactly the one it was fetched for,
//   with every endpoint https (test-only loopback aside) and PKCE S256 advertised.
// Nothing is guessed where a link is missing: no server root as authorization server, no default
// /authorize, /token or /register paths, no proceeding without PKCE metadata.
import type { EgressFailureReason, PinnedFetch } from '@gatehouse/egress';
import { getJson } from '../http/oauth-http';
import { canonicalResourceUri, originOf } from './canonical-resource';
import { isAcceptableEndpoint, parseUrl, type EndpointSecurityOptions } from './endpoint-security.policy';
import {
  authorizationServerMetadataSchema,
  protectedResourceMetadataSchema,
  type AuthorizationServerMetadata,
} from './metadata.schema';
import { resourceMetadataLink } from './www-authenticate';

export type DiscoveryRefusalReason =
  /** The server URL is not an absolute http(s) URL acceptable as an endpoint. */
  | 'invalid_server_url'
  /** The challenge's resource_metadata link points to another origin than the server. */
  | 'cross_origin_metadata_link'
  /** No protected-resource metadata at the linked or well-known location. */
  | 'resource_metadata_not_found'
  | 'resource_metadata_invalid'
  /** The metadata's `resource` is not this server's canonical URI. */
  | 'resource_mismatch'
  /** The metadata names no authorization server (a missing link: never replaced by a guess). */
  | 'no_authorization_server'
  | 'authorization_server_metadata_not_found'
  | 'authorization_server_metadata_invalid'
  /** The authorization server's metadata names another issuer than the one it was fetched for. */
  | 'issuer_mismatch'
  /** The metadata lacks the authorization or token endpoint (a missing link). */
  | 'missing_endpoint'
  /** An issuer, link or endpoint that is not https (the operator's test-only loopback aside). */
  | 'insecure_endpoint'
  /** The authorization server does not advertise PKCE with S256. */
  | 'pkce_s256_not_supported'
  /** The egress fetch refused or could not complete a metadata request. */
  | 'metadata_unreachable';

/** What a sign-in may use: every field checked. */
export interface DiscoveredAuthorization {
  /** The server's canonical URI: the `resource` indicator of every request. */
  readonly resource: string;
  readonly issuer: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly registrationEndpoint: string | null;
  readonly revocationEndpoint: string | null;
  /** RFC 9207: when true, an authorization response without `iss` is refused. */
  readonly issParameterSupported: boolean;
  readonly clientIdMetadataDocumentSupported: boolean;
  readonly tokenEndpointAuthMethods: readonly string[];
  readonly scopesSupported: readonly string[];
  /** The protected-resource metadata's scopes_supported (MCP's scope choice when a challenge names none). */
  readonly resourceScopesSupported: readonly string[];
}

export type DiscoveryResult =
  | { readonly ok: true; readonly discovered: DiscoveredAuthorization }
  | {
      readonly ok: false;
      readonly reason: DiscoveryRefusalReason;
      /** Set for metadata_unreachable: the egress lib's reason (origin-free). */
      readonly egressReason?: EgressFailureReason;
    };

export interface DiscoverAuthorizationInput {
  /** The MCP server's URL, as admitted. */
  readonly serverUrl: string;
  /** The WWW-Authenticate header of the server's 401, when there was one. */
  readonly challenge?: string | null;
}

export interface DiscoveryDependencies extends EndpointSecurityOptions {
  /** The egress lib's pinned fetch: the only way this lib reaches the network. */
  readonly fetch: PinnedFetch;
  readonly signal?: AbortSignal;
}

const refuse = (reason: DiscoveryRefusalReason, egressReason?: EgressFailureReason): DiscoveryResult =>
  egressReason === undefined ? { ok: false, reason } : { ok: false, reason, egressReason };

/** RFC 9728 §3.1: the well-known suffix goes between the host and the path. */
export function protectedResourceMetadataUrls(serverUrl: URL): string[] {
  const base = `${serverUrl.origin}/.well-known/oauth-protected-resource`;
  const path = serverUrl.pathname === '/' ? '' : serverUrl.pathname;
  return path === '' ? [base] : [`${base}${path}`, base];
}

/** RFC 8414 §3.1 and OIDC discovery, in the order MCP gives them, for an issuer with or without a path. */
export function authorizationServerMetadataUrls(issuer: URL): string[] {
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  if (path === '')
    return [
      `${issuer.origin}/.well-known/oauth-authorization-server`,
      `${issuer.origin}/.well-known/openid-configuration`,
    ];
  return [
    `${issuer.origin}/.well-known/oauth-authorization-server${path}`,
    `${issuer.origin}/.well-known/openid-configuration${path}`,
    `${issuer.origin}${path}/.well-known/openid-configuration`,
  ];
}

type Fetched =
  | { readonly found: true; readonly body: Readonly<Record<string, unknown>> }
  | { readonly found: false; readonly egressReason: EgressFailureReason | null; readonly invalid: boolean };

// The first candidate answering 200 with a JSON object. A 4xx/5xx moves to the next candidate; an unreachable
// origin or a body that is not JSON stops (a document that exists but cannot be read is not skipped).
async function firstDocument(candidates: readonly string[], deps: DiscoveryDependencies): Promise<Fetched> {
  for (const candidate of candidates) {
    const answer = await getJson(deps.fetch, candidate, deps.signal);
    if (!answer.ok) {
      if (answer.reason === 'not_json') return { found: false, egressReason: null, invalid: true };
      return { found: false, egressReason: answer.egressReason ?? 'connection_failed', invalid: false };
    }
    if (answer.status === 200 && answer.body !== null) return { found: true, body: answer.body };
    if (answer.status === 200) return { found: false, egressReason: null, invalid: true };
  }
  return { found: false, egressReason: null, invalid: false };
}

export async function discoverAuthorization(
  input: DiscoverAuthorizationInput,
  deps: DiscoveryDependencies,
): Promise<DiscoveryResult> {
  const serverUrl = parseUrl(input.serverUrl);
  const resource = canonicalResourceUri(input.serverUrl);
  if (!serverUrl || resource === null) return refuse('invalid_server_url');
  if (!isAcceptableEndpoint(resource, deps)) return refuse('insecure_endpoint');

  // 1. Protected-resource metadata: the challenge's link, checked to be this server's origin, or the
  //    well-known location of this server.
  const link = resourceMetadataLink(input.challenge);
  let candidates: string[];
  if (link !== null) {
    if (originOf(link) !== serverUrl.origin) return refuse('cross_origin_metadata_link');
    if (!isAcceptableEndpoint(link, deps)) return refuse('insecure_endpoint');
    candidates = [link];
  } else {
    candidates = protectedResourceMetadataUrls(serverUrl);
  }
  const prmDocument = await firstDocument(candidates, deps);
  if (!prmDocument.found) {
    if (prmDocument.invalid) return refuse('resource_metadata_invalid');
    if (prmDocument.egressReason !== null) return refuse('metadata_unreachable', prmDocument.egressReason);
    return refuse('resource_metadata_not_found');
  }
  const prm = protectedResourceMetadataSchema.safeParse(prmDocument.body);
  if (!prm.success) return refuse('resource_metadata_invalid');
  if (canonicalResourceUri(prm.data.resource) !== resource) return refuse('resource_mismatch');
  const issuer = prm.data.authorization_servers?.[0];
  if (issuer === undefined) return refuse('no_authorization_server');

  // 2. Authorization server metadata, fetched for that issuer and naming it exactly.
  const issuerUrl = parseUrl(issuer);
  if (!issuerUrl || issuerUrl.search !== '' || issuerUrl.hash !== '')
    return refuse('authorization_server_metadata_invalid');
  if (!isAcceptableEndpoint(issuer, deps)) return refuse('insecure_endpoint');
  const asDocument = await firstDocument(authorizationServerMetadataUrls(issuerUrl), deps);
  if (!asDocument.found) {
    if (asDocument.invalid) return refuse('authorization_server_metadata_invalid');
    if (asDocument.egressReason !== null) return refuse('metadata_unreachable', asDocument.egressReason);
    return refuse('authorization_server_metadata_not_found');
  }
  const parsed = authorizationServerMetadataSchema.safeParse(asDocument.body);
  if (!parsed.success) return refuse('authorization_server_metadata_invalid');
  return checkAuthorizationServer(resource, issuer, parsed.data, prm.data.scopes_supported ?? [], deps);
}

function checkAuthorizationServer(
  resource: string,
  issuer: string,
  metadata: AuthorizationServerMetadata,
  resourceScopesSupported: readonly string[],
  options: EndpointSecurityOptions,
): DiscoveryResult {
  // RFC 8414 §3.3: identical, character for character (no normalization: a trailing slash is another issuer).
  if (metadata.issuer !== issuer) return refuse('issuer_mismatch');
  const { authorization_endpoint: authorizationEndpoint, token_endpoint: tokenEndpoint } = metadata;
  if (authorizationEndpoint === undefined || tokenEndpoint === undefined) return refuse('missing_endpoint');
  const endpoints = [
    authorizationEndpoint,
    tokenEndpoint,
    metadata.registration_endpoint,
    metadata.revocation_endpoint,
  ].filter((endpoint): endpoint is string => endpoint !== undefined);
  if (!endpoints.every((endpoint) => isAcceptableEndpoint(endpoint, options)))
    return refuse('insecure_endpoint');
  if (!(metadata.code_challenge_methods_supported ?? []).includes('S256'))
    return refuse('pkce_s256_not_supported');
  return {
    ok: true,
    discovered: {
      resource,
      issuer,
      authorizationEndpoint,
      tokenEndpoint,
      registrationEndpoint: metadata.registration_endpoint ?? null,
      revocationEndpoint: metadata.revocation_endpoint ?? null,
      issParameterSupported: metadata.authorization_response_iss_parameter_supported === true,
      clientIdMetadataDocumentSupported: metadata.client_id_metadata_document_supported === true,
      tokenEndpointAuthMethods: metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'],
      scopesSupported: metadata.scopes_supported ?? [],
      resourceScopesSupported,
    },
  };
}
