import { signOutOAuth, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import { deleteOAuthCredential, listOAuthCredentialsOfSubject, type Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { TenantPrincipal } from '../auth/principal';
import { auditActorOf } from '../shared/audit-actor';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { HandlesCommand } from '../commands/registry/handles-command.decorator';
import { DATABASE } from '../infrastructure/infrastructure.tokens';
import { appendLeaseChange } from '../revocations/lease-change.event';
import { oauthAuditEvent } from './oauth.audit';
import { heldTokensOf, revokeAtIssuer } from './issuer-revocation';
import { signedInUserOf } from './oauth-caller';
import { OAUTH_RUNTIME, type OAuthRuntime } from './oauth-runtime';

type Input = CommandInput<typeof signOutOAuth>;
type Output = CommandOutput<typeof signOutOAuth>;

/**
 * `oauth.signOut`: the caller's own credential deleted first, with the `oauth_signed_out` ledger event (every
 * lease of this user revalidates) and the audit row in the same transaction; only after commit is the issuer
 * asked to revoke the tokens (RFC 7009, through the pinned fetch). An issuer that is down or refuses leaves
 * the sign-out done: `revokedAtIssuer` says whether it answered.
 */
@HandlesCommand(signOutOAuth)
export class SignOutOAuthUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OAUTH_RUNTIME) private readonly runtime: OAuthRuntime,
  ) {}

  async execute({ principal, input, signal }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const userId = signedInUserOf(principal);
    const deleted = await this.db.withTenant(principal.tenantId, async (tx) => {
      // Only the caller's own credentials are looked at: another person's id reads as not found.
      const own = await listOAuthCredentialsOfSubject(tx, { kind: 'user', userId });
      const row = own.find((candidate) => candidate.id === input.credentialId);
      if (row === undefined) throw notFound('credential');
      const gone = await deleteOAuthCredential(tx, row.identity, row.version);
      // A refresh rotated it between the read and the delete: the caller retries (it is still theirs).
      if (gone === null) throw notFound('credential');
      await appendLeaseChange(tx, 'oauth_signed_out', { userId });
      await appendAuditEvent(
        tx,
        oauthAuditEvent(auditActorOf(principal), 'oauth.signed_out', gone.id, {
          issuer: gone.identity.issuer,
          securityIdentity: gone.identity.serverIdentity,
        }),
      );
      return { row: gone, tokens: heldTokensOf(this.runtime.cipher, gone) };
    });
    const revokedAtIssuer = await revokeAtIssuer(
      { db: this.db, runtime: this.runtime },
      principal,
      deleted.row,
      deleted.tokens,
      signal,
    );
    return { id: deleted.row.id, state: 'signed_out', revokedAtIssuer };
  }
}
