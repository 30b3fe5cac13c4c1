// Public surface of @gatehouse/coordination: Redis connections, fencing locks, event fan-out with catch-up, and the
// revocation ledger's Redis side (its channels, the subscriber and its retrying start). Lease holding is
// @gatehouse/lease-holder's.

export type { CoordinationLogger } from './coordination-logger';

export {
  closeRedis,
  createRedisConnection,
  type CloseRedisOptions,
  type CreateRedisConnectionOptions,
  type RedisConnectionPurpose,
} from './redis-connection-factory';
export { RedisConnections, type RedisConnectionsOptions } from './redis-connections';

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
export { revocationNamespaceOf } from './revocation-namespace';
export {
  RevocationSubscriber,
  type RevalidateReason,
  type RevocationSubscriberOptions,
} from './revocation-subscriber';
export {
  RetryingRevocationHolder,
  type RetriedRevocationSubscriber,
  type RetryingRevocationHolderOptions,
} from './retrying-revocation.holder';
export { Wakeup } from './wakeup';
