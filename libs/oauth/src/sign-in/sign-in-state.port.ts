// Where a sign-in's `state` waits for its redirect. `take` is atomic and single-use: a second take of the same
// state finds nothing, whoever asks. Records expire on their own (the store's TTL), and the sign-in also
// checks `expiresAt` by its own clock.
import type { CredentialSubject } from '../refresh/credential-key';
import type { TokenEndpointAuthMethod } from '../tokens/client-authentication';

/** Who started the sign-in: the redirect is accepted only for the same tenant, user and session. */
export interface SignInBinding {
  readonly tenantId: string;
  readonly userId: string;
  readonly sessionId: string;
}

export interface SignInStateRecord {
  readonly binding: SignInBinding;
  readonly subject: CredentialSubject;
  readonly serverIdentity: string;
  readonly resource: string;
  readonly issuer: string;
  readonly issParameterSupported: boolean;
  readonly tokenEndpoint: string;
  readonly revocationEndpoint: string | null;
  readonly clientId: string;
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  readonly redirectUri: string;
  readonly codeVerifier: string;
  /** Epoch ms. */
  readonly expiresAt: number;
}

export interface SignInStateStore {
  /** Saves under `stateId` (a digest of the state value, never the value itself) for `ttlMs`. */
  save(stateId: string, record: SignInStateRecord, ttlMs: number): Promise<void>;
  /** Removes and returns the record; null when unknown, already taken or expired. */
  take(stateId: string): Promise<SignInStateRecord | null>;
}
