// The token store: get / set / delete, where set takes the version it expects to replace (compare-and-swap).
// The coordination (one refresh per credential across processes) lives on the caller's side
// (RefreshCoordinator), so a store is only storage: Postgres with the OAuthCredential table in the API, memory
// in tests, a keychain elsewhere, without anything else changing. Decision 0056.
import type { OAuthTokens } from '../tokens/token-set';
import type { CredentialKey } from './credential-key';

export type CredentialStatus =
  /** Tokens usable (or refreshable). */
  | 'active'
  /**
   * A holder marked the refresh token as about to be sent and has not recorded the outcome yet. Found by
   * another holder, it means the refresh token may already be spent: it is never sent again.
   */
  | 'refresh_in_flight'
  /** Only a new sign-in helps (refresh refused, refresh token possibly spent, none issued). */
  | 'needs_sign_in';

export interface CredentialRecord {
  readonly status: CredentialStatus;
  /** Null once the credential needs sign-in. */
  readonly tokens: OAuthTokens | null;
  /** The endpoint the tokens came from: refreshes go there only. */
  readonly tokenEndpoint: string;
  readonly revocationEndpoint: string | null;
  readonly clientId: string;
  /** For refresh_in_flight: the fencing token of the holder that marked it (decimal). */
  readonly refreshFencingToken: string | null;
}

export interface StoredCredential extends CredentialRecord {
  readonly key: CredentialKey;
  /** Increases on every set and never repeats for a key, not even after a delete and a new sign-in. */
  readonly version: number;
}

export type TokenStoreSetResult =
  | { readonly ok: true; readonly version: number }
  | { readonly ok: false; readonly reason: 'version_conflict'; readonly current: StoredCredential | null };

export interface TokenStore {
  get(key: CredentialKey): Promise<StoredCredential | null>;
  /**
   * Writes `record` if the stored version is `expectedVersion` (null: only if there is none). Anything else is
   * a version_conflict carrying what is stored now; nothing is written.
   */
  set(
    key: CredentialKey,
    record: CredentialRecord,
    expectedVersion: number | null,
  ): Promise<TokenStoreSetResult>;
  /** Deletes the credential (only at `expectedVersion` when given); true when something was deleted. */
  delete(key: CredentialKey, expectedVersion?: number): Promise<boolean>;
}
