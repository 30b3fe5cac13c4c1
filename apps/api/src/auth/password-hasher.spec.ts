import { PasswordHasher, checkPasswordPolicy } from './password-hasher';

describe('checkPasswordPolicy', () => {
  it('wants 12 to 256 characters, counted as code points', () => {
    expect(checkPasswordPolicy('short-pass1')).toEqual({ ok: false, reason: 'password_too_short' });
    expect(checkPasswordPolicy('twelve chars')).toEqual({ ok: true });
    expect(checkPasswordPolicy('🔑'.repeat(12))).toEqual({ ok: true });
    expect(checkPasswordPolicy('x'.repeat(257))).toEqual({ ok: false, reason: 'password_too_long' });
  });
});

describe('PasswordHasher', () => {
  // Cheap parameters: these tests check behaviour, not cost.
  const hasher = new PasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

  it('hashes with argon2id and verifies only the right password', async () => {
    const hash = await hasher.hash('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    await expect(hasher.verify(hash, 'correct horse battery')).resolves.toBe(true);
    await expect(hasher.verify(hash, 'correct horse batterY')).resolves.toBe(false);
  });

  it('treats a stored value that is not an argon2 hash as a mismatch', async () => {
    await expect(hasher.verify('not-a-real-hash', 'anything at all')).resolves.toBe(false);
  });

  it('does a dummy verification for unknown accounts and always refuses', async () => {
    await expect(hasher.verifyUnknown('whatever password')).resolves.toBe(false);
  });
});
