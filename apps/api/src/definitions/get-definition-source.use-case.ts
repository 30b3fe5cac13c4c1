import { type CommandInput, getDefinitionSource } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { mayReadSource, type DefinitionTierName } from './definition-access';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { toSourceView } from './definition-source-view';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `definitions.sources.get`: redacted projections per entry and the source's problems; never the document. */
@HandlesCommand(getDefinitionSource)
export class GetDefinitionSourceUseCase implements UseCaseFor<typeof getDefinitionSource> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof getDefinitionSource>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const row = await tx.definitionSource.findUnique({ where: { id: input.sourceId } });
      if (row === null || !mayReadSource(principal, { ...row, tier: row.tier as DefinitionTierName }))
        throw notFound('definition source');
      return toSourceView(row, this.cipher.openDocument(row, row.documentCt));
    });
  }
}
