// Every Redis key and channel this lib uses, in one place. The caller's namespace comes first (e.g.
// `gatehouse` in production, a random one per test file so files share one Redis without colliding); it is
// applied to channels too, which ioredis' keyPrefix never touches.
//
// The resource or topic sits inside a {hash tag}, so the keys a Lua script touches together (lock + fencing
// counter) land in the same cluster slot.

const NAME = /^[A-Za-z0-9._:/@-]{1,200}$/;

export function assertCoordinationName(kind: 'namespace' | 'resource' | 'topic', value: string): void {
  // No braces (they would break the hash tag), no whitespace or newlines (the pub/sub envelope is line-based).
  if (!NAME.test(value)) throw new TypeError(`${kind} must be 1-200 characters of [A-Za-z0-9._:/@-]`);
}

export const coordinationNames = {
  lockKey: (namespace: string, resource: string): string => `${namespace}:lock:{${resource}}`,
  // Never expires and never resets: fencing tokens must keep increasing for the life of the resource.
  fencingCounterKey: (namespace: string, resource: string): string => `${namespace}:lock:{${resource}}:fence`,
  lockReleasedChannel: (namespace: string, resource: string): string =>
    `${namespace}:lock-released:{${resource}}`,
  topicStreamKey: (namespace: string, topic: string): string => `${namespace}:fanout:{${topic}}:log`,
  topicChannel: (namespace: string, topic: string): string => `${namespace}:fanout:{${topic}}`,
} as const;
