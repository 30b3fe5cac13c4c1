import type { oauthCredentialView } from '@gatehouse/commands';
import type { OAuthCredentialRow } from '@gatehouse/db';
import type { z } from 'zod';

type View = z.infer<typeof oauthCredentialView>;

/** What a person sees of a credential: the state word, issuer, resource and expiry. Never a token. */
export function oauthCredentialViewOf(row: OAuthCredentialRow): View {
  const subject = row.identity.subject;
  return {
    id: row.id,
    workspaceId: subject.kind === 'workspace' ? subject.workspaceId : null,
    subject: subject.kind,
    state: row.status === 'needs_sign_in' ? 'needs_sign_in' : 'signed_in',
    issuer: row.identity.issuer,
    resource: row.identity.resource,
    securityIdentity: row.identity.serverIdentity,
    accessTokenExpiresAt:
      row.status === 'needs_sign_in' || row.expiresAt === null ? null : row.expiresAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
