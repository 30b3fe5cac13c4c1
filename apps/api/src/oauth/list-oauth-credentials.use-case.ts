import { listOAuthCredentials, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import { listOAuthCredentialsOfSubject, type Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import type { TenantPrincipal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { signedInUserOf } from './oauth-caller';
import { oauthCredentialPageOf } from './oauth-credential-page';

type Input = CommandInput<typeof listOAuthCredentials>;
type Output = CommandOutput<typeof listOAuthCredentials>;

/**
 * `oauth.credentials.list`: the caller's own sign-ins in this tenant, newest first; never a token. With a
 * `workspaceId` (a workspace the caller sees; otherwise 404), the workspace's service credentials follow, as the
 * same view: a member learns that the workspace's credential serves a server there, its state word, issuer and
 * expiry, which is what the Connections page shows them (decision 0102). Managing them stays with owners and
 * admins (oauth.serviceCredentials.list and its sign-out, workspaces:write, decision 0098).
 */
@HandlesCommand(listOAuthCredentials)
export class ListOAuthCredentialsUseCase implements UseCase<Input, Output> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const userId = signedInUserOf(principal);
    const rows = await this.db.withTenant(principal.tenantId, async (tx) => {
      const own = await listOAuthCredentialsOfSubject(tx, { kind: 'user', userId });
      if (input.workspaceId === undefined) return own;
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
      return [
        ...own,
        ...(await listOAuthCredentialsOfSubject(tx, { kind: 'workspace', workspaceId: workspace.id })),
      ];
    });
    return oauthCredentialPageOf(rows, input);
  }
}
