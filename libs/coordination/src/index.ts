// Public surface of @gatehouse/coordination: Redis connections, fencing locks and event fan-out with catch-up.

export type { CoordinationLogger } from './coordination-logger';

export {
  closeRedis,
  createRedisConnection,
  type CloseRedisOptions,
  type CreateRedisConnectionOptions,
  type RedisConnectionPurpose,
} from './redis-connection.factory';

export {
  RedisChannelMultiplexer,
  type ChannelListener,
  type ChannelListenerHandle,
} from './channel-multiplexer';

export {
  FencingLock,
  type AcquireLockOptions,
  type AcquireLockWithWaitOptions,
  type FencingLockOptions,
  type HeldLock,
} from './fencing-lock';
export { LockLostError, type HeldLockState, type LockLostReason } from './held-lock';
export { checkFencingToken, type FencingCheck } from './fencing-token';

export {
  defineEventTopic,
  type EventTopic,
  type EventTopicDefinition,
  type FanOutEvent,
  type FanOutGap,
  type InvalidFanOutEvent,
  type InvalidFanOutEventReason,
} from './event-topic';
export {
  EventFanOut,
  READ_SINCE_MAX_LIMIT,
  type EventFanOutOptions,
  type FanOutSubscription,
  type ReadSinceResult,
  type SubscribeOptions,
} from './event-fan-out';
export type { FanOutHandler } from './fan-out-subscription';
export { compareStreamIds, isStreamId } from './stream-id';

export {
  publishRevocations,
  revocationChannel,
  type AnnouncedRevocation,
  type RevocationAnnouncement,
  type RevocationStreamRef,
} from './revocation-channel';
export {
  RevocationSubscriber,
  type RevalidateReason,
  type RevocationSubscriberOptions,
} from './revocation.subscriber';
export {
  RetryingRevocationHolder,
  type RetriedRevocationSubscriber,
  type RetryingRevocationHolderOptions,
} from './retrying-revocation.holder';
export {
  RevocationsReadError,
  createHttpRevocationsReader,
  type HttpRevocationsReaderOptions,
} from './revocations-http.reader';
export { Wakeup } from './wakeup';

// Lease holders (the worker and the gateway, decision 0081): the lease routes' client, the held-lease registry
// whose drop closes a connection, and which revocation events concern a held lease.
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
} from './lease-holder/lease-api.client';
export {
  HeldLeases,
  type DropReason,
  type HeldLease,
  type HeldLeaseFacts,
} from './lease-holder/held-leases.registry';
export { leaseConcernedBy } from './lease-holder/lease-revocation.match';
export {
  freshLeaseTokens,
  type FreshLeaseRefusal,
  type FreshLeaseTokens,
  type FreshLeaseTokensOptions,
} from './lease-holder/fresh-lease-tokens.source';
