// Who a credential belongs to and which server it is for. A credential is keyed by subject, the server's
// security identity, its canonical URL and the issuer together, so a shadowing definition (same name, other
// identity or URL) cannot use another's sign-in, and a changed issuer is another credential.
import { createHash } from 'node:crypto';

export type CredentialSubject =
  | { readonly kind: 'user'; readonly userId: string }
  /** A workspace service credential an admin chose, for a server whose definition allows shared use. */
  | { readonly kind: 'workspace'; readonly workspaceId: string };

export interface CredentialKey {
  readonly tenantId: string;
  readonly subject: CredentialSubject;
  readonly serverIdentity: string;
  /** The server's canonical URI (the resource indicator). */
  readonly resource: string;
  readonly issuer: string;
}

/** A stable, opaque id of a key: safe as a Redis lock resource (no secret in it, [A-Za-z0-9_-] only). */
export function credentialKeyId(key: CredentialKey): string {
  const subject =
    key.subject.kind === 'user' ? ['user', key.subject.userId] : ['workspace', key.subject.workspaceId];
  return createHash('sha256')
    .update(JSON.stringify([key.tenantId, ...subject, key.serverIdentity, key.resource, key.issuer]))
    .digest('base64url');
}

export function sameCredentialKey(a: CredentialKey, b: CredentialKey): boolean {
  return credentialKeyId(a) === credentialKeyId(b);
}
