import {
  deleteOAuthCredential,
  listOAuthCredentialsOfSubject,
  type Database,
  type OAuthSubjectRef,
} from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { TenantPrincipal } from '../auth/principal';
import { appendLeaseChange, type LeaseChangeSubject } from '../revocations/lease-change-event';
import { auditActorOf } from '../auth/audit-actor';
import { notFound } from '../shared/command-problems';
import { heldTokensOf, revokeAtIssuer } from './issuer-revocation';
import { oauthAuditEvent, type OAuthAuditAction } from './oauth-audit';
import type { OAuthRuntime } from '../oauth-credentials/oauth-runtime';

export interface CredentialSignOut {
  /** Only this subject's credentials are looked at: any other id reads as not found. */
  readonly subject: OAuthSubjectRef;
  readonly credentialId: string;
  /** Whose leases end with the credential (the `oauth_signed_out` ledger event's subject). */
  readonly leaseSubject: LeaseChangeSubject;
  readonly auditAction: Extract<OAuthAuditAction, 'oauth.signed_out' | 'oauth.service_credential_signed_out'>;
  readonly auditData?: Readonly<Record<string, string>>;
  /**
   * Delete only the version read (a refresh rotating it in between makes the caller retry), or the row as it is
   * now (the tokens revoked are then the ones the deleted row held).
   */
  readonly deleteVersion: 'read' | 'current';
}

/**
 * Every sign-out (a person's own, a workspace's service credential): the row deleted first, with the ledger
 * event and the audit row in the same transaction; only after commit is the issuer asked to revoke its tokens,
 * so an issuer that is down or refuses keeps nobody signed in. `revokedAtIssuer` says whether it answered.
 */
export async function signOutCredential(
  deps: { readonly db: Database; readonly runtime: OAuthRuntime },
  principal: TenantPrincipal,
  signOut: CredentialSignOut,
  signal: AbortSignal | undefined,
): Promise<{ readonly id: string; readonly revokedAtIssuer: boolean }> {
  const deleted = await deps.db.withTenant(principal.tenantId, async (tx) => {
    const held = await listOAuthCredentialsOfSubject(tx, signOut.subject);
    const row = held.find((candidate) => candidate.id === signOut.credentialId);
    if (row === undefined) throw notFound('credential');
    const expectedVersion = signOut.deleteVersion === 'read' ? row.version : undefined;
    const gone = await deleteOAuthCredential(tx, row.identity, expectedVersion);
    if (gone === null) throw notFound('credential');
    await appendLeaseChange(tx, 'oauth_signed_out', signOut.leaseSubject);
    await appendAuditEvent(
      tx,
      oauthAuditEvent(auditActorOf(principal), signOut.auditAction, gone.id, {
        ...signOut.auditData,
        issuer: gone.identity.issuer,
        securityIdentity: gone.identity.serverIdentity,
      }),
    );
    return { row: gone, tokens: heldTokensOf(deps.runtime.cipher, gone) };
  });
  const revokedAtIssuer = await revokeAtIssuer(deps, principal, deleted.row, deleted.tokens, signal);
  return { id: deleted.row.id, revokedAtIssuer };
}
