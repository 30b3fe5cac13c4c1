import { listRevocations, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { Database, RevocationScope } from '@gatehouse/db';
import { ProblemError } from '@gatehouse/platform';
import { Inject } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { readCheckedRevocationsPage } from './revocations-page-reader';

type Input = CommandInput<typeof listRevocations>;
type Output = CommandOutput<typeof listRevocations>;

/** The stream a caller reads: a tenant credential its tenant's, a gateway token (a platform service) the whole ledger. */
export function revocationScopeOf(principal: Principal): RevocationScope {
  return principal.type === 'tenant'
    ? { stream: 'tenant', tenantId: principal.tenantId }
    : { stream: 'platform' };
}

function sinceBeyondHead(): ProblemError {
  return new ProblemError({
    status: 400,
    code: 'bad_cursor',
    title: 'Bad cursor',
    detail: '`since` is past the newest position of this stream. Start again from `head` (since=0 reads it).',
  });
}

/** `GET /v1/revocations?since=&limit=`: the catch-up read of a lease holder (docs/decisions/0065). */
@HandlesCommand(listRevocations)
export class ListRevocationsUseCase implements UseCase<Input, Output> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<Input, Principal>): Promise<Output> {
    const read = await readCheckedRevocationsPage(
      this.db,
      revocationScopeOf(principal),
      input.since,
      input.limit,
    );
    if (!read.ok) throw sinceBeyondHead();
    return read.page;
  }
}
