// The namespace the revocation relay publishes under, and every holder subscribes under: the deployment's
// REDIS_KEY_PREFIX without its trailing colons. The API (relay and token-cache holder), the worker and the gateway
// all derive it here, so one prefix always names one set of channels whichever process reads it.

const DEFAULT_PREFIX = 'gatehouse:';

/** `gatehouse:` → `gatehouse`; unset (the API's optional prefix) or only colons → `gatehouse`. */
export function revocationNamespaceOf(prefix: string | undefined): string {
  return (prefix ?? DEFAULT_PREFIX).replace(/:+$/, '') || 'gatehouse';
}
