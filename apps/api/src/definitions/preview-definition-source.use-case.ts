import { type CommandInput, type CommandOutput, previewDefinitionSource } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import { viewsAffectedBy } from '../effective-view/affected-views';
import { changeScopeOfSource, FAN_OUT_UNIT_OF_WORK } from '../approval-requests/open-requests-after-change';
import { withRolledBackAuditLinks } from '../audit/audit-checkpoint-logger';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { approvalsLeftStale, readApprovalStandings } from './approval-standing-reader';
import { assertMayWriteSource, sourceTargetOf } from './definition-access';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { answerRacedCreate, writeSourceInTx } from './write-definition-source';

type Preview = CommandOutput<typeof previewDefinitionSource>;

/** Carries the preview out of the transaction it rolls back. */
class DryRunFinished extends Error {
  constructor(readonly preview: Preview) {
    super('dry run finished');
  }
}

/**
 * `definitions.sources.preview`: the put, run for real inside a transaction that is then rolled back, so the
 * answer is what the put would do by construction (same checks, same refusals, same requests), not a second
 * model of it. Nothing it did survives: no row, no ledger event (positions are assigned after commit only), no
 * audit row and no audit checkpoint of one.
 */
@HandlesCommand(previewDefinitionSource)
export class PreviewDefinitionSourceUseCase implements UseCaseFor<typeof previewDefinitionSource> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof previewDefinitionSource>>) {
    const { document, ...target } = input;
    try {
      await withRolledBackAuditLinks(() =>
        answerRacedCreate(() =>
          this.db.withTenant(
            principal.tenantId,
            async (tx) => {
              const source = await sourceTargetOf(tx, principal, target);
              // Refused before any reading: a caller who may not write the tier learns nothing from its cost.
              await assertMayWriteSource(tx, principal, source);
              const views = await viewsAffectedBy(tx, changeScopeOfSource(source), principal.userId);
              const before = await readApprovalStandings(tx, this.cipher, principal.tenantId, views);
              const outcome = await writeSourceInTx(tx, this.cipher, {
                principal,
                input: target,
                document: { kind: 'value', value: document },
                action: 'definitions.sources.put',
              });
              const after = await readApprovalStandings(tx, this.cipher, principal.tenantId, views);
              const names = new Map(views.map((view) => [view.workspace.id, view.workspace.name]));
              const stored = new Map(outcome.view.entries.map((entry) => [String(entry['name']), entry]));
              throw new DryRunFinished({
                tier: outcome.view.tier,
                origin: outcome.view.origin,
                currentVersion: outcome.previousVersion,
                nextVersion: outcome.written ? outcome.view.version : null,
                entries: outcome.entryChanges.map(({ name, change }) => {
                  const entry = change === 'removed' ? undefined : stored.get(name);
                  return {
                    name,
                    change,
                    state:
                      entry === undefined ? null : (entry['state'] as 'valid' | 'malformed' | 'rejected'),
                    problems: (entry?.['problems'] as Record<string, unknown>[] | undefined) ?? [],
                  };
                }),
                problems: outcome.view.problems,
                staleApprovals: approvalsLeftStale(before, after).map(({ standing, becomes }) => ({
                  workspaceId: standing.workspaceId,
                  workspaceName: standing.workspaceName,
                  serverName: standing.serverName,
                  principalUserId: standing.principalUserId,
                  becomes,
                })),
                requests: outcome.opened.map(({ request, outcome: opened }) => ({
                  workspaceId: request.workspaceId,
                  workspaceName: names.get(request.workspaceId) ?? request.workspaceId,
                  serverName: request.serverName,
                  principalUserId: request.principalUserId,
                  outcome: opened,
                })),
              });
            },
            FAN_OUT_UNIT_OF_WORK,
          ),
        ),
      );
    } catch (error) {
      if (error instanceof DryRunFinished) return error.preview;
      throw error;
    }
    throw new Error('definitions.sources.preview: the dry run ended without its answer');
  }
}
