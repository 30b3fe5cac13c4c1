// Public surface of @gatehouse/oauth: discovery that follows only checked links, client registration in
// MCP's order, authorization code + PKCE S256 + resource + RFC 9207 iss with a single-use bound state, and
// the refresh-once coordinator over a versioned token store port. HTTP only through @gatehouse/egress.
export {
  authorizationServerMetadataUrls,
  discoverAuthorization,
  protectedResourceMetadataUrls,
  type DiscoverAuthorizationInput,
  type DiscoveredAuthorization,
  type DiscoveryDependencies,
  type DiscoveryRefusalReason,
  type DiscoveryResult,
} from './discovery/authorization-discovery';
export { canonicalResourceUri } from './discovery/canonical-resource';
export { isAcceptableEndpoint, type EndpointSecurityOptions } from './discovery/endpoint-security.policy';
export { challengeScope, resourceMetadataLink } from './discovery/www-authenticate';

export type { ClientRegistrationStore } from './clients/client-registration.port';
export {
  resolveClientRegistration,
  type ClientMetadata,
  type ClientRegistrationRefusal,
  type ClientRegistrationResult,
  type ResolveClientDependencies,
} from './clients/client-registration';
export type { RegisteredClient, TokenEndpointAuthMethod } from './tokens/client-authentication';
export type { OAuthTokens, TokenErrorCode } from './tokens/token-set';
export {
  revokeToken,
  type TokenRevocationFailure,
  type TokenRevocationRequest,
  type TokenRevocationResult,
} from './tokens/token-revocation';

export { createPkcePair, s256Challenge, type PkcePair } from './sign-in/pkce';
export type { SignInBinding, SignInStateRecord, SignInStateStore } from './sign-in/sign-in-state.port';
export {
  RedisSignInStateStore,
  type RedisSignInStateStoreOptions,
} from './sign-in/redis-sign-in-state.store';
export {
  DEFAULT_SIGN_IN_STATE_TTL_MS,
  signInStateId,
  startSignIn,
  type StartSignInDependencies,
  type StartSignInInput,
  type StartSignInResult,
} from './sign-in/start-sign-in';
export {
  completeSignIn,
  type CompleteSignInDependencies,
  type CompleteSignInInput,
  type CompleteSignInRefusal,
  type CompleteSignInResult,
  type SignedIn,
} from './sign-in/complete-sign-in';

export {
  credentialKeyId,
  sameCredentialKey,
  type CredentialKey,
  type CredentialSubject,
} from './refresh/credential-key';
export type {
  CredentialRecord,
  CredentialStatus,
  StoredCredential,
  TokenStore,
  TokenStoreSetResult,
} from './refresh/token-store.port';
export {
  RefreshCoordinator,
  type AccessTokenRefusal,
  type AccessTokenResult,
  type RefreshCoordinatorOptions,
  type RefreshOptions,
} from './refresh/refresh-coordinator';
