import { type CommandInput, getEffectiveDefinitions } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { callerUserId } from '../auth/principal';
import { toActivationView } from '../effective-view/activation-view';
import { EffectiveView } from '../effective-view/effective-view.service';
import type { EvaluatedEntry } from '../effective-view/effective-views';
import { poolsOpenToTenant, type WorkerPools } from '../auth/pool-config';
import type { CheckAdmissionDeps } from '../admission/admission-deps';
import { judgeLaunch, type LaunchGround } from '../admission/launch-judgement';
import { launchTargetOf } from '../effective-view/launch-target';
import { hostPolicyOfRow } from '../host-policy/host-policy-view';
import { toEffectiveView, type EntryDecisions } from './effective-definitions-view';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { CHECK_ADMISSION_DEPS, WORKER_POOLS } from '../infrastructure/command-deps-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

type Admission = EntryDecisions['admission'];

/**
 * `definitions.effective`: the workspace alone (managed, project, plugin), or the caller as principal (every
 * tier, their variables and overlays). Never another user's view: the principal is always the caller. Each entry
 * carries its activation state, what holds beneath a disable overlay (and the overlay's reason), and for an
 * approved entry whether it is admissible at all (the pools' ceilings and URL admission, judged
 * as a lease would, so the dashboard never guesses). Reading never opens an approval request; DNS runs after
 * the transaction, as in admission.check.
 */
@HandlesCommand(getEffectiveDefinitions)
export class GetEffectiveDefinitionsUseCase implements UseCaseFor<typeof getEffectiveDefinitions> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(EffectiveView) private readonly views: EffectiveView,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
    @Inject(CHECK_ADMISSION_DEPS) private readonly admissionDeps: CheckAdmissionDeps,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof getEffectiveDefinitions>>) {
    const read = await this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
      const userId = input.view === 'principal' ? callerUserId(principal) : null;
      const context = await this.views.load(tx, {
        tenantId: principal.tenantId,
        workspaceIds: [workspace.id],
        userIds: userId === null ? [] : [userId],
      });
      const evaluated = context.evaluate(workspace, userId);
      const hostPolicy = await tx.hostPolicy.findUnique({ where: { tenantId: principal.tenantId } });
      const overlays = evaluated.entries.map((item) =>
        item.entry.status === 'disabled'
          ? context.snapshot.overlayOf(workspace.id, userId, item.entry.name)
          : null,
      );
      return { workspace, evaluated, overlays, tenantPolicy: hostPolicyOfRow(hostPolicy) };
    });
    const ground: LaunchGround = {
      tenantPolicy: read.tenantPolicy,
      pools: poolsOpenToTenant(this.pools, principal.tenantSlug),
      resolver: this.admissionDeps.resolver,
    };
    const admissions = await Promise.all(read.evaluated.entries.map((item) => admissionOf(item, ground)));
    return toEffectiveView(
      read.workspace.id,
      read.evaluated.result,
      read.evaluated.entries.map((item, index) => ({
        activation: toActivationView(item),
        beneathOverlay:
          item.beneathOverlay === null
            ? null
            : toActivationView({ decision: item.beneathOverlay, openRequest: null }),
        overlay: read.overlays[index] ?? null,
        admission: admissions[index] ?? null,
      })),
    );
  }
}

/** Only an approved entry is judged: anything else is never leased, and its activation already says why. */
async function admissionOf(item: EvaluatedEntry, ground: LaunchGround): Promise<Admission> {
  if (item.decision.state !== 'approved' || item.entry.status !== 'resolved') return null;
  const judgement = await judgeLaunch(launchTargetOf(item.entry), ground);
  return { admissible: judgement.launchable, reasons: [...judgement.refusals] };
}
