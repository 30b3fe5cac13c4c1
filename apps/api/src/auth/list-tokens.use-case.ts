import { type CommandInput, listTokens } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { toTokenView } from '../commands/command-views';
import { afterPosition, keysetOrder, positionAfter, toPage } from '../shared/pagination/keyset-page';
import { visibleTokens } from './visible-tokens';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

const LIST = 'tokens';

/** `tokens.list`: by prefix, never a secret; revoked tokens only when asked for. */
@HandlesCommand(listTokens)
export class ListTokensUseCase implements UseCaseFor<typeof listTokens> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listTokens>>) {
    const position = positionAfter(LIST, input.cursor);
    const rows = await this.db.withTenant(principal.tenantId, (tx) =>
      tx.apiToken.findMany({
        where: {
          ...visibleTokens(principal),
          ...(input.includeRevoked === true ? {} : { revokedAt: null }),
          ...afterPosition(position, 'id'),
        },
        orderBy: keysetOrder('id'),
        take: input.limit + 1,
      }),
    );
    return toPage(LIST, rows, input.limit, (row) => ({ at: row.createdAt, id: row.id }), toTokenView);
  }
}
