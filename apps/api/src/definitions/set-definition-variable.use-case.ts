import { randomUUID } from 'node:crypto';
import { type CommandInput, setDefinitionVariable } from '@gatehouse/commands';
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

/** `definitions.variables.set`: encrypts the value under its row's identity; answers only "set". */
@HandlesCommand(setDefinitionVariable)
export class SetDefinitionVariableUseCase implements UseCaseFor<typeof setDefinitionVariable> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
    @Inject(CatalogRefreshProducer) private readonly refreshes: CatalogRefreshProducer,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof setDefinitionVariable>>) {
    return this.db.withTenant(
      principal.tenantId,
      async (tx) => {
        const holder = await variableHolderOf(tx, principal, input);
        await assertMayWriteVariables(tx, principal, holder);
        const tenantId = principal.tenantId;
        const existing = await tx.definitionVariable.findUnique({
          where: { tenantId_holder_name: { tenantId, holder: holder.holder, name: input.name } },
          select: { id: true },
        });
        const id = existing?.id ?? randomUUID();
        const valueCt = this.cipher.sealValue({ id, tenantId }, input.value);
        const row =
          existing === null
            ? await tx.definitionVariable.create({
                data: {
                  id,
                  tenantId,
                  scope: holder.scope,
                  holder: holder.holder,
                  workspaceId: holder.workspaceId,
                  userId: holder.userId,
                  name: input.name,
                  valueCt,
                  updatedBy: principal.userId,
                },
              })
            : await tx.definitionVariable.update({
                where: { id },
                data: { valueCt, updatedBy: principal.userId },
              });
        await afterVariableChange(
          tx,
          { cipher: this.cipher, refreshes: this.refreshes },
          principal,
          { holder, name: input.name },
          'variable_set',
        );
        await appendAuditEvent(tx, {
          actor: auditActorOf(principal),
          action: 'definitions.variables.set',
          target: { type: 'definition_variable', id: row.id },
          outcome: 'success',
          data: {
            scope: holder.scope,
            workspaceId: holder.workspaceId,
            name: input.name,
            replaced: existing !== null,
          },
        });
        return {
          scope: holder.scope,
          workspaceId: holder.workspaceId,
          name: input.name,
          set: true,
          updatedAt: row.updatedAt.toISOString(),
        };
      },
      FAN_OUT_UNIT_OF_WORK,
    );
  }
}
