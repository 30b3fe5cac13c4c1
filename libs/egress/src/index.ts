// Public surface of @gatehouse/egress: the one URL admission policy (pure; DNS through an injected resolver)
// and the pinned, redirect-refusing fetch that is the only way out to a URL a definition named.
export {
  admitUrl,
  DEFAULT_ADMISSION_DEADLINE_MS,
  MAX_ADMISSION_DEADLINE_MS,
  type AdmitUrlOptions,
} from './policy/url-admission.policy.js';
export type {
  AdmissionRefusalReason,
  AdmissionResult,
  Cidr,
  EgressPolicy,
  OperatorDenylist,
} from './policy/egress-policy.js';
export { checkEgressPolicy, type EgressPolicyCheck } from './policy/compiled-policy.js';
export { cidrWithin, isCidr } from './policy/cidr.js';
export type { ResolveResult, Resolver } from './resolver/resolver.port.js';
export {
  createDnsResolver,
  DEFAULT_DNS_TIMEOUT_MS,
  DEFAULT_DNS_TRIES,
  type DnsResolverOptions,
} from './resolver/dns-resolver.js';
export { createFixedResolver } from './resolver/fixed-resolver.js';
export {
  createPinnedFetch,
  DEFAULT_ADMISSION_TTL_MS,
  DEFAULT_CONNECTIONS_PER_ORIGIN,
  DEFAULT_MAX_ORIGINS,
  MAX_ADMISSION_TTL_MS,
  type PinnedFetch,
  type PinnedFetchOptions,
  type PinnedRequestInit,
} from './fetch/pinned-fetch.js';
export { EgressError, isEgressError, type EgressFailureReason } from './fetch/egress-error.js';
export { METADATA_CIDRS } from './policy/metadata-destinations.js';
