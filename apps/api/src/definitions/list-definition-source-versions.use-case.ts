import { type CommandInput, listDefinitionSourceVersions } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { decodeDefinitionDocument } from '@gatehouse/definitions';
import { Inject } from '@nestjs/common';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { PERSON } from '../commands/command-views';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { readableSource } from './definition-source-history-reader';
import { sourceRefOf } from './definition-source-view';
import { KEPT_SOURCE_VERSIONS } from './definition-source-version.store';

/** `definitions.sources.versions`: the kept versions, newest first, with counts and their writers' names. */
@HandlesCommand(listDefinitionSourceVersions)
export class ListDefinitionSourceVersionsUseCase implements UseCaseFor<typeof listDefinitionSourceVersions> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listDefinitionSourceVersions>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const source = await readableSource(tx, principal, input.sourceId);
      const rows = await tx.definitionSourceVersion.findMany({
        where: { sourceId: source.id },
        orderBy: { version: 'desc' },
        take: KEPT_SOURCE_VERSIONS,
        select: { version: true, entries: true, problems: true, writtenBy: true, createdAt: true },
      });
      const writers = [
        ...new Set([...rows.map((row) => row.writtenBy), source.updatedBy].filter((id) => id !== null)),
      ];
      // Names of people who are members here; a former member's versions keep their id only.
      const members = await tx.membership.findMany({
        where: { userId: { in: writers } },
        include: { user: PERSON },
      });
      const names = new Map(members.map((member) => [member.userId, member.user.displayName]));
      const items = rows.map((row) => ({
        version: row.version,
        entries: row.entries,
        problems: row.problems,
        writtenBy: row.writtenBy,
        writtenByName: row.writtenBy === null ? null : (names.get(row.writtenBy) ?? null),
        createdAt: row.createdAt.toISOString(),
      }));
      // Written before versions were stored: the current version is the live row.
      if (items[0]?.version !== source.version) {
        const text = this.cipher.openDocument(source, source.documentCt);
        const decoded = text === undefined ? undefined : decodeDefinitionDocument(text, sourceRefOf(source));
        items.unshift({
          version: source.version,
          entries: decoded?.readable ? decoded.entries.length : 0,
          problems: decoded === undefined ? 1 : decoded.readable ? decoded.problems.length : 1,
          writtenBy: source.updatedBy,
          writtenByName: source.updatedBy === null ? null : (names.get(source.updatedBy) ?? null),
          createdAt: source.updatedAt.toISOString(),
        });
      }
      return { sourceId: source.id, origin: source.origin, currentVersion: source.version, items };
    });
  }
}
