import { TOKEN_KINDS } from '@gatehouse/commands';
import { bearerTokenOf, looksLikeApiToken, mintTokenSecret } from './api-token-format';
import { sha256 } from './opaque-secret';

describe('mintTokenSecret', () => {
  it.each(TOKEN_KINDS)(
    'mints a %s token: kind letter, 43 base62 chars, sha256 and a 10-char prefix',
    (kind) => {
      const minted = mintTokenSecret(kind);
      expect(minted.secret).toMatch(new RegExp(`^gh${kind[0]}_[0-9A-Za-z]{43}$`));
      expect(minted.prefix).toBe(minted.secret.slice(0, 10));
      expect(minted.secretHash.equals(sha256(minted.secret))).toBe(true);
      expect(looksLikeApiToken(minted.secret)).toBe(true);
    },
  );

  it('never mints the same secret twice', () => {
    const secrets = new Set(Array.from({ length: 200 }, () => mintTokenSecret('user').secret));
    expect(secrets.size).toBe(200);
  });
});

describe('bearerTokenOf', () => {
  const token = mintTokenSecret('agent').secret;

  it('reads a bearer credential, scheme case-insensitive', () => {
    expect(bearerTokenOf(`Bearer ${token}`)).toBe(token);
    expect(bearerTokenOf(`bearer ${token}`)).toBe(token);
  });

  it('is undefined without a header and null for anything else', () => {
    expect(bearerTokenOf(undefined)).toBeUndefined();
    expect(bearerTokenOf(`Basic ${token}`)).toBeNull();
    expect(bearerTokenOf('Bearer ghx_short')).toBeNull();
    expect(bearerTokenOf(`Bearer ${token} extra`)).toBeNull();
  });
});
