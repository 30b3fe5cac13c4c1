import { signOutOAuthServiceCredential, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import type { TenantPrincipal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { notFound } from '../shared/command-problems';
import { signOutCredential } from './credential-sign-out';
import { OAUTH_RUNTIME, type OAuthRuntime } from '../oauth-credentials/oauth-runtime';

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
    const workspace = await this.db.withTenant(principal.tenantId, (tx) =>
      tx.workspace.findUnique({ where: { id: input.workspaceId }, select: { id: true } }),
    );
    if (workspace === null) throw notFound('workspace');
    const { id, revokedAtIssuer } = await signOutCredential(
      { db: this.db, runtime: this.runtime },
      principal,
      {
        subject: { kind: 'workspace', workspaceId: workspace.id },
        credentialId: input.credentialId,
        leaseSubject: { workspaceId: workspace.id },
        auditAction: 'oauth.service_credential_signed_out',
        auditData: { workspaceId: workspace.id },
        deleteVersion: 'current',
      },
      signal,
    );
    return { id, state: 'signed_out', revokedAtIssuer };
  }
}
