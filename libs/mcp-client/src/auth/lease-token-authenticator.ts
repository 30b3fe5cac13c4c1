import { createHash } from 'node:crypto';
import type { Authenticator } from './authenticator.js';

// The authenticator of a server that declares OAuth: the access token its lease carries, as
// `Authorization: Bearer` on every request to that server (the transport asks after admission, never across a
// redirect). A worker or the gateway never refreshes: a refused token (401) is retried at most once per
// connection, with the token of a fresh lease, and only when the holder allows it (`freshAccessToken`). Without
// a token there is no authenticator and no attempt: connectAdmitted refuses such a description.

export interface LeaseTokenAuthenticatorOptions {
  /** The access token of the lease (never logged: it is a bearer secret). */
  readonly accessToken: string;
  /**
   * Asks the API for a fresh lease of the same server, passing `refused.accessTokenSha256` (leases.issue's
   * `refusedAccessTokenSha256`, so the API refreshes that token if it is still the stored one), and answers the
   * fresh lease's access token, or null when none may be had (needs sign-in, the lease refused). Absent: a
   * refusal stands.
   */
  readonly freshAccessToken?: FreshAccessToken | null;
}

/** What a holder is told of the refused token: its digest only, never the token. */
export type FreshAccessToken = (refused: { readonly accessTokenSha256: string }) => Promise<string | null>;

export function createLeaseTokenAuthenticator(options: LeaseTokenAuthenticatorOptions): Authenticator {
  let token = options.accessToken;
  let retried = false;
  return {
    headers: () => Promise.resolve({ authorization: `Bearer ${token}` }),
    refresh: async () => {
      const fresh = options.freshAccessToken;
      if (fresh == null || retried) return false;
      retried = true;
      const next = await fresh({
        accessTokenSha256: createHash('sha256').update(token, 'utf8').digest('base64url'),
      });
      // The same token again would only be refused again.
      if (next === null || next === '' || next === token) return false;
      token = next;
      return true;
    },
  };
}
