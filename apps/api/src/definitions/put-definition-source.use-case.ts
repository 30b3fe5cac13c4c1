import { type CommandInput, putDefinitionSource } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { writeDefinitionSource } from './write-definition-source';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `definitions.sources.put`: the whole document as JSON (see writeDefinitionSource). */
@HandlesCommand(putDefinitionSource)
export class PutDefinitionSourceUseCase implements UseCaseFor<typeof putDefinitionSource> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof putDefinitionSource>>) {
    const { document, ...target } = input;
    return writeDefinitionSource(this.db, this.cipher, {
      principal,
      input: target,
      document: { kind: 'value', value: document },
      action: 'definitions.sources.put',
    });
  }
}
