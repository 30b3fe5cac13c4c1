import { listOAuthServiceCredentials, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import { listOAuthCredentialsOfSubject, type Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import type { TenantPrincipal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { notFound } from '../shared/command-problems';
import { oauthCredentialPageOf } from './oauth-credential-page';

type Input = CommandInput<typeof listOAuthServiceCredentials>;
type Output = CommandOutput<typeof listOAuthServiceCredentials>;

/**
 * `oauth.serviceCredentials.list` (owners and admins: `workspaces:write`, as choosing one is; people only; never
 * over admin MCP): the workspace's service credentials, newest first, as the same view a person sees of their own
 * (the state word, issuer, resource, security identity, expiry). Never a token.
 */
@HandlesCommand(listOAuthServiceCredentials)
export class ListServiceCredentialsUseCase implements UseCase<Input, Output> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const rows = await this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await tx.workspace.findUnique({ where: { id: input.workspaceId } });
      if (workspace === null) throw notFound('workspace');
      return listOAuthCredentialsOfSubject(tx, { kind: 'workspace', workspaceId: workspace.id });
    });
    return oauthCredentialPageOf(rows, input);
  }
}
