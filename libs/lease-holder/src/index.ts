// Public surface of @gatehouse/lease-holder: what a process that holds leases of the API (the worker, the gateway;
// decision 0081) needs of it over HTTP, and the bookkeeping of what it holds. The lease routes' client, the
// held-lease registry whose drop closes a connection, which revocation events concern a held lease, the fresh
// lease an upstream 401 asks for, and the revocation ledger's catch-up read. The Redis side of revocations (the
// channel, the subscriber, the retrying start) is @gatehouse/coordination's.

export {
  LeaseApiClient,
  LeaseApiError,
  type IssueLeaseInput,
  type IssueLeaseResult,
  type IssuedLease,
  type LeaseApiClientOptions,
  type LeaseCallResult,
  type LeaseRefusal,
  type RenewLeaseResult,
} from './lease-api.client';
export { HeldLeases, type DropReason, type HeldLease, type HeldLeaseFacts } from './held-leases-registry';
export { leaseConcernedBy } from './lease-revocation-match';
export {
  freshLeaseTokens,
  type FreshLeaseRefusal,
  type FreshLeaseTokens,
  type FreshLeaseTokensOptions,
} from './fresh-lease-tokens-source';
export {
  RevocationsReadError,
  createHttpRevocationsReader,
  type HttpRevocationsReaderOptions,
} from './revocations-http-reader';
