import { type CommandInput, unsetDefinitionVariable } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { FAN_OUT_UNIT_OF_WORK } from '../approval-requests/open-requests-after-change';
import { CatalogRefreshProducer } from '../catalog-refresh-queue/catalog-refresh-producer';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { afterVariableChange } from './variable-changed';
import { assertMayWriteVariables, variableHolderOf } from './definition-variable.holder';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `definitions.variables.unset`: idempotent; audited only when something was unset. */
@HandlesCommand(unsetDefinitionVariable)
export class UnsetDefinitionVariableUseCase implements UseCaseFor<typeof unsetDefinitionVariable> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
    @Inject(CatalogRefreshProducer) private readonly refreshes: CatalogRefreshProducer,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof unsetDefinitionVariable>>) {
    return this.db.withTenant(
      principal.tenantId,
      async (tx) => {
        const holder = await variableHolderOf(tx, principal, input);
        await assertMayWriteVariables(tx, principal, holder);
        const existing = await tx.definitionVariable.findUnique({
          where: {
            tenantId_holder_name: { tenantId: principal.tenantId, holder: holder.holder, name: input.name },
          },
          select: { id: true },
        });
        if (existing !== null) {
          await tx.definitionVariable.delete({ where: { id: existing.id } });
          // Unsetting can change what resolves (a default takes over) or leave an entry unresolved (nothing opens).
          await afterVariableChange(
            tx,
            { cipher: this.cipher, refreshes: this.refreshes },
            principal,
            { holder, name: input.name },
            'variable_unset',
          );
          await appendAuditEvent(tx, {
            actor: auditActorOf(principal),
            action: 'definitions.variables.unset',
            target: { type: 'definition_variable', id: existing.id },
            outcome: 'success',
            data: { scope: holder.scope, workspaceId: holder.workspaceId, name: input.name },
          });
        }
        return {
          scope: holder.scope,
          workspaceId: holder.workspaceId,
          name: input.name,
          set: false,
          updatedAt: null,
        };
      },
      FAN_OUT_UNIT_OF_WORK,
    );
  }
}
