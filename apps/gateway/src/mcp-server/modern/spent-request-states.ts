import type { Redis } from 'ioredis';

// A requestState is good for one retry (decision 0144): its nonce is claimed in Redis, shared by every replica,
// for as long as the state could verify, so a replayed state (the same retry sent twice, or an old round sent
// again) is refused wherever it lands. Redis not answering refuses too: a replay is never let through because a
// dependency is down.

export interface SpentRequestStates {
  /** True the first time a nonce is claimed; false for a replay, or when the claim cannot be made. */
  claim(nonce: string, ttlSeconds: number): Promise<boolean>;
  close(): Promise<void>;
}

export class RedisSpentRequestStates implements SpentRequestStates {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  async claim(nonce: string, ttlSeconds: number): Promise<boolean> {
    try {
      const set = await this.redis.set(
        `${this.keyPrefix}request-state:${nonce}`,
        '1',
        'EX',
        ttlSeconds,
        'NX',
      );
      return set === 'OK';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
