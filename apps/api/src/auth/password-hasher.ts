import { randomBytes } from 'node:crypto';
import { argon2id, hash, verify } from 'argon2';

/**
 * argon2id cost parameters. The defaults are OWASP's second recommended setting (19 MiB, 2 passes, 1 lane):
 * ~20-40 ms on one core here, so a 2-core API host still serves logins while under a guessing attack (which
 * the login throttle bounds anyway).
 */
export interface PasswordHashParams {
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

export const DEFAULT_PASSWORD_HASH_PARAMS: PasswordHashParams = Object.freeze({
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

export const PASSWORD_MIN_LENGTH = 12;
/** An upper bound so a megabyte "password" cannot be used to burn CPU; far above any passphrase. */
export const PASSWORD_MAX_LENGTH = 256;

export type PasswordPolicyResult =
  { ok: true } | { ok: false; reason: 'password_too_short' | 'password_too_long' };

/** Length only (NIST 800-63B): composition rules make passwords worse, length makes them better. */
export function checkPasswordPolicy(password: string): PasswordPolicyResult {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return { ok: false, reason: 'password_too_short' };
  if (length > PASSWORD_MAX_LENGTH) return { ok: false, reason: 'password_too_long' };
  return { ok: true };
}

/**
 * Hashes and verifies passwords with argon2id. `verifyUnknown` burns the same work as a real verification, so
 * a login for an email that has no account takes as long as one with a wrong password: response time does
 * not reveal which emails exist. argon2's own verify compares digests in constant time.
 */
export class PasswordHasher {
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly params: PasswordHashParams = DEFAULT_PASSWORD_HASH_PARAMS) {}

  hash(password: string): Promise<string> {
    return hash(password, { type: argon2id, ...this.params });
  }

  /** False for a wrong password and for a stored value that is not an argon2 hash (never throws for those). */
  async verify(storedHash: string, password: string): Promise<boolean> {
    try {
      return await verify(storedHash, password);
    } catch {
      return false;
    }
  }

  /** Same cost as `verify` against a real hash of these params; always false. */
  async verifyUnknown(password: string): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(32).toString('base64url'));
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
