import { listOAuthCredentials, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import { listOAuthCredentialsOfSubject, type Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import type { TenantPrincipal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command.decorator';
import { DATABASE } from '../infrastructure/infrastructure.tokens';
import { signedInUserOf } from './oauth-caller';
import { oauthCredentialPageOf } from './oauth-credential.page';

type Input = CommandInput<typeof listOAuthCredentials>;
type Output = CommandOutput<typeof listOAuthCredentials>;

/** `oauth.credentials.list`: the caller's own sign-ins in this tenant, newest first; never a token. */
@HandlesCommand(listOAuthCredentials)
export class ListOAuthCredentialsUseCase implements UseCase<Input, Output> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const userId = signedInUserOf(principal);
    const rows = await this.db.withTenant(principal.tenantId, (tx) =>
      listOAuthCredentialsOfSubject(tx, { kind: 'user', userId }),
    );
    return oauthCredentialPageOf(rows, input);
  }
}
