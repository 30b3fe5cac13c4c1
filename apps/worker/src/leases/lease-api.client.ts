// The lease routes' client is shared with the gateway (libs/coordination, decision 0081); the worker's modules
// keep importing it from here.
export {
  LeaseApiClient,
  LeaseApiError,
  type IssueLeaseInput,
  type IssueLeaseResult,
  type IssuedLease,
  type LeaseApiClientOptions,
  type LeaseCallResult,
  type LeaseRefusal,
} from '@gatehouse/coordination';
