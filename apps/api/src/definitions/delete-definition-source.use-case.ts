import { type CommandInput, deleteDefinitionSource } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import {
  changeScopeOfSource,
  openRequestsAfterChange,
  FAN_OUT_UNIT_OF_WORK,
} from '../approval-requests/open-requests-after-change';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { conflict, notFound } from '../shared/command-problems';
import { assertMayWriteSource, mayReadSource, type DefinitionTierName } from './definition-access';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { appendLeaseChange } from '../revocations/lease-change-event';

/**
 * `definitions.sources.delete`: same write rules as put; `expectedVersion`, when given, must match. Deleting a
 * source can un-shadow another source's entry of the same name, so it opens requests like a write does.
 */
@HandlesCommand(deleteDefinitionSource)
export class DeleteDefinitionSourceUseCase implements UseCaseFor<typeof deleteDefinitionSource> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof deleteDefinitionSource>>) {
    return this.db.withTenant(
      principal.tenantId,
      async (tx) => {
        const row = await tx.definitionSource.findUnique({ where: { id: input.sourceId } });
        const tier = row?.tier as DefinitionTierName;
        if (row === null || !mayReadSource(principal, { ...row, tier })) throw notFound('definition source');
        await assertMayWriteSource(tx, principal, { ...row, tier });
        if (input.expectedVersion !== undefined && input.expectedVersion !== row.version)
          throw conflict('The source changed since you read it; read it again.');
        const deleted = await tx.definitionSource.deleteMany({ where: { id: row.id, version: row.version } });
        if (deleted.count !== 1) throw conflict('The source changed since you read it; read it again.');
        // The trigger list has no "source deleted": a deletion is a write of the tier's content.
        await openRequestsAfterChange(tx, this.cipher, principal, changeScopeOfSource(row), 'source_written');
        await appendLeaseChange(tx, 'definition_changed', {
          definitionSourceId: row.id,
          workspaceId: row.workspaceId,
          userId: row.ownerUserId,
        });
        await appendAuditEvent(tx, {
          actor: auditActorOf(principal),
          action: 'definitions.sources.delete',
          target: { type: 'definition_source', id: row.id },
          outcome: 'success',
          data: { tier: row.tier, origin: row.origin, version: row.version },
        });
        return { deleted: true };
      },
      FAN_OUT_UNIT_OF_WORK,
    );
  }
}
