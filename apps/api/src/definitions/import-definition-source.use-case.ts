import { type CommandInput, importDefinitionSource } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { writeDefinitionSource } from './write-definition-source';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `definitions.sources.import`: the text of a `.mcp.json` file, stored as written (see writeDefinitionSource). */
@HandlesCommand(importDefinitionSource)
export class ImportDefinitionSourceUseCase implements UseCaseFor<typeof importDefinitionSource> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof importDefinitionSource>>) {
    const { content, ...target } = input;
    return writeDefinitionSource(this.db, this.cipher, {
      principal,
      input: target,
      document: { kind: 'text', text: content },
      action: 'definitions.sources.import',
    });
  }
}
