/**
 * OAuth settings a definition may carry. A client secret is never one of them: it lives in Gatehouse's encrypted
 * OAuth client registration, never in a definition anyone with write access to a tier can read back.
 */
export interface OAuthSettings {
  /** A pre-registered public client id (not a secret). Absent: dynamic client registration. */
  readonly clientId: string | null;
  readonly scopes: readonly string[];
  /** Whether an admin may choose a workspace service credential for this server (shared use). Default false. */
  readonly allowSharedCredential: boolean;
}
