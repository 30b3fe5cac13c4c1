import type { Database, OAuthCredentialRow } from '@gatehouse/db';
import { revokeToken } from '@gatehouse/oauth';
import type { TenantPrincipal } from '../auth/principal';
import type { OAuthCipher } from '../oauth-credentials/oauth-cipher';
import { registeredClientFor, tenantHostPolicyOf } from '../oauth-credentials/oauth-client-lookup';
import type { OAuthRuntime } from '../oauth-credentials/oauth-runtime';

// The second half of every sign-out (a person's own, a workspace's service credential): after the row is deleted
// and committed, the issuer is asked to revoke its tokens (RFC 7009, through the pinned fetch of a pool open to
// the tenant). Nothing here can keep anyone signed in: the row is already gone.

export interface HeldTokens {
  readonly refreshToken: string | null;
  readonly accessToken: string | null;
}

/** The row's tokens, opened in memory only for the revocation after commit (a ciphertext that fails: none). */
export function heldTokensOf(cipher: OAuthCipher, row: OAuthCredentialRow): HeldTokens {
  return {
    refreshToken: row.refreshTokenCt && (cipher.open('refreshToken', row, row.refreshTokenCt) ?? null),
    accessToken: row.accessTokenCt && (cipher.open('accessToken', row, row.accessTokenCt) ?? null),
  };
}

/** True only when the issuer confirmed every token it was sent (refresh token first: it outlives the other). */
export async function revokeAtIssuer(
  deps: { readonly db: Database; readonly runtime: OAuthRuntime },
  principal: TenantPrincipal,
  row: OAuthCredentialRow,
  tokens: HeldTokens,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const endpoint = row.revocationEndpoint;
  const toRevoke = [
    { token: tokens.refreshToken, tokenTypeHint: 'refresh_token' as const },
    { token: tokens.accessToken, tokenTypeHint: 'access_token' as const },
  ].filter(
    (entry): entry is { token: string; tokenTypeHint: typeof entry.tokenTypeHint } => entry.token !== null,
  );
  if (endpoint === null || toRevoke.length === 0) return false;
  const egress = deps.runtime.egressFor(
    principal.tenantSlug,
    await tenantHostPolicyOf(deps.db, principal.tenantId),
  );
  if (egress === null) return false;
  try {
    const client = await registeredClientFor(
      deps.db,
      deps.runtime.cipher,
      principal.tenantId,
      row.identity.issuer,
      row.clientId,
    );
    let all = true;
    for (const { token, tokenTypeHint } of toRevoke) {
      const revoked = await revokeToken(egress.fetch, {
        revocationEndpoint: endpoint,
        client,
        token,
        tokenTypeHint,
        ...(signal ? { signal } : {}),
      });
      all &&= revoked.ok;
    }
    return all;
  } finally {
    await egress.fetch.close();
  }
}
