import { listOAuthCredentials, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import { listOAuthCredentialsOfSubject, type Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import type { TenantPrincipal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { badCursor } from '../shared/command-problems';
import { HandlesCommand } from '../commands/registry/handles-command.decorator';
import { DATABASE } from '../infrastructure/infrastructure.tokens';
import { signedInUserOf } from './oauth-caller';
import { oauthCredentialViewOf } from './oauth-credential.view';

type Input = CommandInput<typeof listOAuthCredentials>;
type Output = CommandOutput<typeof listOAuthCredentials>;

/** An offset cursor over the caller's own credentials (a person has a handful: one per server and issuer). */
function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^o:(\d{1,6})$/.exec(text);
  if (match === null) throw badCursor();
  return Number(match[1]);
}

/** `oauth.credentials.list`: the caller's own sign-ins in this tenant, newest first; never a token. */
@HandlesCommand(listOAuthCredentials)
export class ListOAuthCredentialsUseCase implements UseCase<Input, Output> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const userId = signedInUserOf(principal);
    const offset = offsetOf(input.cursor);
    const rows = await this.db.withTenant(principal.tenantId, (tx) =>
      listOAuthCredentialsOfSubject(tx, { kind: 'user', userId }),
    );
    const items = rows.slice(offset, offset + input.limit).map(oauthCredentialViewOf);
    const next = offset + input.limit;
    return {
      items,
      nextCursor: next < rows.length ? Buffer.from(`o:${next}`, 'utf8').toString('base64url') : null,
    };
  }
}
