// The sign-in state store on Redis: SET NX PX to save (a collision is a bug: state values are 256-bit
// random), GETDEL to take (atomic: exactly one taker). Keys hold a digest of the state, never the state.
import type { Redis } from 'ioredis';
import type { SignInStateRecord, SignInStateStore } from './sign-in-state.port';
import { signInStateRecordSchema } from './sign-in-state.schema';

export interface RedisSignInStateStoreOptions {
  readonly connection: Redis;
  /** e.g. `gatehouse`; a random one per test file. */
  readonly namespace: string;
}

const STATE_ID = /^[A-Za-z0-9_-]{16,128}$/;

export class RedisSignInStateStore implements SignInStateStore {
  constructor(private readonly options: RedisSignInStateStoreOptions) {}

  private key(stateId: string): string {
    if (!STATE_ID.test(stateId)) throw new TypeError('stateId must be 16-128 characters of [A-Za-z0-9_-]');
    return `${this.options.namespace}:oauth-sign-in-state:${stateId}`;
  }

  async save(stateId: string, record: SignInStateRecord, ttlMs: number): Promise<void> {
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new TypeError('ttlMs must be a positive integer');
    const reply = await this.options.connection.set(
      this.key(stateId),
      JSON.stringify(record),
      'PX',
      ttlMs,
      'NX',
    );
    if (reply !== 'OK') throw new Error('sign-in state already exists');
  }

  async take(stateId: string): Promise<SignInStateRecord | null> {
    const stored = await this.options.connection.getdel(this.key(stateId));
    if (stored === null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(stored);
    } catch {
      return null;
    }
    const record = signInStateRecordSchema.safeParse(parsed);
    return record.success ? record.data : null;
  }
}
