import { signOutOAuthServiceCredential, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import { deleteOAuthCredential, listOAuthCredentialsOfSubject, type Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { TenantPrincipal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command.decorator';
import { DATABASE } from '../infrastructure/infrastructure.tokens';
import { appendLeaseChange } from '../revocations/lease-change.event';
import { auditActorOf } from '../shared/audit-actor';
import { notFound } from '../shared/command-problems';
import { heldTokensOf, revokeAtIssuer } from './issuer-revocation';
import { oauthAuditEvent } from './oauth.audit';
import { OAUTH_RUNTIME, type OAuthRuntime } from './oauth-runtime';

type Input = CommandInput<typeof signOutOAuthServiceCredential>;
type Output = CommandOutput<typeof signOutOAuthServiceCredential>;

/**
 * `oauth.serviceCredential.signOut` (owners and admins: `workspaces:write`; people only; never over admin MCP):
 * the sign-out of `oauth.signOut` for a workspace's service credential (decision 0098). The row is deleted first,
 * with the `oauth_signed_out` ledger event for the workspace (every lease that carried it ends) and the audit row
 * in the same transaction; only after commit is the issuer asked to revoke its tokens, so an issuer that is down
 * keeps the workspace signed in nowhere. Only this workspace's service credentials are looked at: a person's
 * credential, or another workspace's, reads as not found.
 */
@HandlesCommand(signOutOAuthServiceCredential)
export class SignOutServiceCredentialUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(OAUTH_RUNTIME) private readonly runtime: OAuthRuntime,
  ) {}

  async execute({ principal, input, signal }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const deleted = await this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await tx.workspace.findUnique({ where: { id: input.workspaceId } });
      if (workspace === null) throw notFound('workspace');
      const held = await listOAuthCredentialsOfSubject(tx, { kind: 'workspace', workspaceId: workspace.id });
      const row = held.find((candidate) => candidate.id === input.credentialId);
      if (row === undefined) throw notFound('credential');
      // Deleted as it is now (a refresh may have rotated it since the read): the tokens revoked are the ones
      // the deleted row held.
      const gone = await deleteOAuthCredential(tx, row.identity);
      if (gone === null) throw notFound('credential');
      await appendLeaseChange(tx, 'oauth_signed_out', { workspaceId: workspace.id });
      await appendAuditEvent(
        tx,
        oauthAuditEvent(auditActorOf(principal), 'oauth.service_credential_signed_out', gone.id, {
          workspaceId: workspace.id,
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
