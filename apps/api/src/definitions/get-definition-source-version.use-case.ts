import { type CommandInput, getDefinitionSourceVersion } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { decodeDefinitionDocument, type DecodedEntry } from '@gatehouse/definitions';
import { Inject } from '@nestjs/common';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { notFound } from '../shared/command-problems';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { readableSource, readSourceVersion } from './definition-source-history-reader';
import { entryView, sourceRefOf } from './definition-source-view';
import { entryChangesBetween } from './source-entry-changes';

type Json = Record<string, unknown>;

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * `definitions.sources.version`: one kept version as projected entries, and per entry what changed since another
 * version (by default the one before). Entries are compared on the stored documents (so a changed secret counts
 * as a change) and shown only as projections (so the diff never shows one).
 */
@HandlesCommand(getDefinitionSourceVersion)
export class GetDefinitionSourceVersionUseCase implements UseCaseFor<typeof getDefinitionSourceVersion> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof getDefinitionSourceVersion>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const source = await readableSource(tx, principal, input.sourceId);
      const shown = await readSourceVersion(tx, this.cipher, source, input.version);
      if (shown === null) throw notFound('definition source version');
      const againstVersion = input.against ?? (input.version > 1 ? input.version - 1 : null);
      const against =
        againstVersion === null ? null : await readSourceVersion(tx, this.cipher, source, againstVersion);
      if (input.against !== undefined && against === null) throw notFound('definition source version');
      const entriesOf = (text: string | undefined): Map<string, Json> => {
        if (text === undefined) return new Map();
        const decoded = decodeDefinitionDocument(text, sourceRefOf(source));
        if (!decoded.readable) return new Map();
        return new Map(decoded.entries.map((entry: DecodedEntry) => [entry.name, entryView(entry)]));
      };
      const now = entriesOf(shown.text);
      const before = entriesOf(against?.text);
      return {
        sourceId: source.id,
        origin: source.origin,
        version: shown.version,
        against: against?.version ?? null,
        createdAt: shown.createdAt.toISOString(),
        entries: [...now.values()],
        changes: entryChangesBetween(parsed(against?.text), parsed(shown.text)).map(({ name, change }) => ({
          name,
          change,
          before: before.get(name) ?? null,
          after: now.get(name) ?? null,
        })),
      };
    });
  }
}
