import * as surface from './index';

// The curated public surface of @gatehouse/coordination: Redis connections, locks, fan-out and the revocation
// ledger's Redis side. Lease holding (the lease routes' client, held leases, the revocations HTTP reader) is
// @gatehouse/lease-holder's, not re-exported here. A new export is added here on purpose.

const RUNTIME_EXPORTS = [
  'EventFanOut',
  'FencingLock',
  'LockLostError',
  'READ_SINCE_MAX_LIMIT',
  'RedisChannelMultiplexer',
  'RedisConnections',
  'RetryingRevocationHolder',
  'RevocationSubscriber',
  'Wakeup',
  'checkFencingToken',
  'closeRedis',
  'compareStreamIds',
  'createRedisConnection',
  'defineEventTopic',
  'isStreamId',
  'publishRevocations',
  'revocationChannel',
  'revocationNamespaceOf',
];

describe('@gatehouse/coordination public surface', () => {
  it('exports exactly the curated names', () => {
    expect(Object.keys(surface).sort()).toEqual([...RUNTIME_EXPORTS].sort());
  });
});
