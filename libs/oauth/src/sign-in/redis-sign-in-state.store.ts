// The sign-in state store on Redis: SET NX PX to save (a collision is a bug: state values are 256-bit
// random), GETDEL to take (atomic: exactly one taker). Keys hold a digest of the state, never the state.
//
// The PKCE verifier is the one secret in a record (with the state value it redeems the code), and Redis runs
// without the protections Postgres has (no row-level security, snapshots and replicas anyone with Redis access
// reads): it is sealed with the operator's key ring before it is written, the AAD bound to the state id and the
// tenant, so a verifier copied under another state or tenant does not open (decision 0083).
import type { EncryptionContext, EnvelopeCipher } from '@gatehouse/crypto';
import type { Redis } from 'ioredis';
import type { SignInStateRecord, SignInStateStore } from './sign-in-state.port';
import { storedSignInStateSchema } from './sign-in-state.schema';

export interface RedisSignInStateStoreOptions {
  readonly connection: Redis;
  /** e.g. `gatehouse`; a random one per test file. */
  readonly namespace: string;
  /** The operator's key ring: seals the PKCE verifier. */
  readonly cipher: EnvelopeCipher;
}

const STATE_ID = /^[A-Za-z0-9_-]{16,128}$/;

/** Where a sealed verifier belongs: a Redis key has no table or column, so these name the record's field. */
function verifierContext(stateId: string, tenantId: string): EncryptionContext {
  return { table: 'redis:oauth-sign-in-state', column: 'code_verifier', rowId: stateId, tenantId };
}

export class RedisSignInStateStore implements SignInStateStore {
  constructor(private readonly options: RedisSignInStateStoreOptions) {}

  private key(stateId: string): string {
    if (!STATE_ID.test(stateId)) throw new TypeError('stateId must be 16-128 characters of [A-Za-z0-9_-]');
    return `${this.options.namespace}:oauth-sign-in-state:${stateId}`;
  }

  async save(stateId: string, record: SignInStateRecord, ttlMs: number): Promise<void> {
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new TypeError('ttlMs must be a positive integer');
    const key = this.key(stateId);
    const { codeVerifier, ...rest } = record;
    const sealed = this.options.cipher.encrypt(
      codeVerifier,
      verifierContext(stateId, record.binding.tenantId),
    );
    const stored = { ...rest, codeVerifierCt: Buffer.from(sealed).toString('base64url') };
    const reply = await this.options.connection.set(key, JSON.stringify(stored), 'PX', ttlMs, 'NX');
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
    const record = storedSignInStateSchema.safeParse(parsed);
    if (!record.success) return null;
    const { codeVerifierCt, ...rest } = record.data;
    const opened = this.options.cipher.decrypt(
      Buffer.from(codeVerifierCt, 'base64url'),
      verifierContext(stateId, rest.binding.tenantId),
    );
    // A verifier that does not open (another state's, a key gone from the ring) is a state that is not there.
    if (!opened.ok) return null;
    return { ...rest, codeVerifier: Buffer.from(opened.plaintext).toString('utf8') };
  }
}
