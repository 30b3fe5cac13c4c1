// Injection tokens of IdentityAuthModule (interfaces have no runtime class to inject by).
/** IdentitySettings: what the operator's config and the caller decide about sign-in and authentication. */
export const IDENTITY_SETTINGS = 'IDENTITY_SETTINGS';
/** SignInDeps, built from the settings and the injected database, hasher and throttle. */
export const SIGN_IN_DEPS = 'SIGN_IN_DEPS';
/** IdentityDeps: what the identity routes and `resolvePrincipal` take, assembled from the providers. */
export const IDENTITY_DEPS = 'IDENTITY_DEPS';
