import type { CommandInput, putDefinitionSource } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import type { DefinitionCipher } from './definition-cipher';
import { writeDefinitionSource } from './write-definition-source';

/** `definitions.sources.put`: the whole document as JSON (see writeDefinitionSource). */
export class PutDefinitionSourceUseCase implements UseCaseFor<typeof putDefinitionSource> {
  constructor(
    private readonly db: Database,
    private readonly cipher: DefinitionCipher,
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
