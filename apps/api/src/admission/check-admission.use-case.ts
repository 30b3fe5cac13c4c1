import { checkAdmission, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { Database, TenantTx } from '@gatehouse/db';
import { toActivationView } from '../effective-view/activation-view';
import { poolsOpenToTenant, type WorkerPools } from '../auth/pool-config';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { EffectiveView } from '../effective-view/effective-view.service';
import { hostPolicyOfRow } from '../host-policy/host-policy-view';
import type { CheckAdmissionDeps } from './admission-deps';
import { judgeLaunch, type LaunchJudgement } from './launch-judgement';
import { fingerprintOf, launchTargetOf, transportOf } from '../effective-view/launch-target';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { WORKER_POOLS, CHECK_ADMISSION_DEPS } from '../infrastructure/command-deps-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

type AdmissionCheck = CommandOutput<typeof checkAdmission>;

/**
 * `admission.check` (tenant:write: owners and admins): the decision a worker would get before a lease for a
 * server in a workspace, for the workspace alone or for one member. Reads only: it opens no approval request
 * and audits nothing. The destination is one class for the tenant, whatever the cause; the cause goes to the
 * operator's log. Stdio authority is listed per pool open to the tenant, for stdio entries only (an http entry,
 * or an entry that does not resolve, lists none). Only a resolved entry is judged at all: anything else is never
 * leased, and its activation already says why.
 */
@HandlesCommand(checkAdmission)
export class CheckAdmissionUseCase implements UseCaseFor<typeof checkAdmission> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(EffectiveView) private readonly views: EffectiveView,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
    @Inject(CHECK_ADMISSION_DEPS) private readonly deps: CheckAdmissionDeps,
  ) {}

  async execute({
    principal,
    input,
  }: UseCaseArgs<CommandInput<typeof checkAdmission>>): Promise<AdmissionCheck> {
    const userId = input.principalUserId?.toLowerCase() ?? null;
    // The database part first, and DNS only after the transaction: a slow lookup must not hold a connection.
    const read = await this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
      if (userId !== null) await assertTenantMember(tx, principal.tenantId, userId);
      const evaluated = await this.views.ofWorkspace(tx, {
        tenantId: principal.tenantId,
        workspace,
        userId,
      });
      const hostPolicy = await tx.hostPolicy.findUnique({ where: { tenantId: principal.tenantId } });
      return {
        workspaceId: workspace.id,
        evaluated: evaluated.entries.find((candidate) => candidate.entry.name === input.serverName) ?? null,
        tenantPolicy: hostPolicyOfRow(hostPolicy),
      };
    });

    const base = { workspaceId: read.workspaceId, serverName: input.serverName, principalUserId: userId };
    if (read.evaluated === null) {
      return {
        ...base,
        found: false,
        transport: null,
        fingerprint: null,
        activation: null,
        destination: { result: 'not_applicable' },
        stdio: [],
        headerHelper: [],
        admissible: false,
      };
    }
    const { entry } = read.evaluated;
    const activation = toActivationView(read.evaluated);
    const target = entry.status === 'resolved' ? launchTargetOf(entry) : null;
    const pools = poolsOpenToTenant(this.pools, principal.tenantSlug);
    const context = {
      tenantId: principal.tenantId,
      workspaceId: read.workspaceId,
      serverName: input.serverName,
    };
    if (target === null) {
      return {
        ...base,
        found: true,
        transport: transportOf(entry),
        fingerprint: fingerprintOf(entry),
        activation,
        destination: { result: 'not_applicable' },
        stdio: [],
        headerHelper: [],
        admissible: false,
      };
    }
    const judgement = await judgeLaunch(target, {
      tenantPolicy: read.tenantPolicy,
      pools,
      resolver: this.deps.resolver,
    });
    this.logDestinationRefusals(judgement, pools.length, context);
    return {
      ...base,
      found: true,
      transport: transportOf(entry),
      fingerprint: fingerprintOf(entry),
      activation,
      destination: { result: judgement.destination },
      stdio: [...judgement.stdio],
      headerHelper: [...judgement.headerHelper],
      admissible: read.evaluated.decision.state === 'approved' && judgement.launchable,
    };
  }

  /** The operator's log is the only place a destination refusal's detailed class is written. */
  private logDestinationRefusals(
    judgement: LaunchJudgement,
    openPools: number,
    context: { tenantId: string; workspaceId: string; serverName: string },
  ): void {
    if (judgement.destination === 'not_applicable') return;
    // No pool open to the tenant: no worker could ever connect, so the destination is refused as a whole
    // (logged as such: the operator's config, not the URL, is why).
    if (openPools === 0) {
      this.deps.log.destinationRefused({ ...context, pool: null, reason: 'no_pool_open', origin: null });
      return;
    }
    for (const result of judgement.destinationResults) {
      if (!result.ok) {
        this.deps.log.destinationRefused({
          ...context,
          pool: result.pool,
          reason: result.reason,
          origin: result.origin,
        });
      }
    }
  }
}

/** Deciding for a user means a member of this tenant; anyone else reads like an id that does not exist. */
async function assertTenantMember(tx: TenantTx, tenantId: string, userId: string): Promise<void> {
  const membership = await tx.membership.findUnique({
    where: { tenantId_userId: { tenantId, userId } },
    select: { id: true },
  });
  if (membership === null) throw notFound('member');
}
