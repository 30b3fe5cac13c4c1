import { type CommandInput, putHostPolicy } from '@gatehouse/commands';
import { JSON_DB_NULL, type Database } from '@gatehouse/db';
import { ProblemError, type ProblemDocument } from '@gatehouse/platform';
import { appendAuditEvent } from '../audit/append-audit-event';
import { poolsOpenToTenant, type WorkerPools } from '../auth/pool-config';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { ValidationProblemError } from '../shared/command-problems';
import type { TenantHostPolicy } from './host-policy';
import { checkAgainstCeilings } from './host-policy-ceiling.guard';
import { hostPolicyOfRow, toHostPolicyView } from './host-policy-view';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { WORKER_POOLS } from '../infrastructure/command-deps-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { appendLeaseChange } from '../revocations/lease-change-event';

const FIELDS = [
  'stdioCommands',
  'headerHelpers',
  'privateCidrs',
  'traceContextOrigins',
  'fourEyes',
  'childEnvKeys',
] as const;

/** Refused: the problem names the entry (`errors[].path`, as validation problems do) so a form can mark it. */
class OutsideCeilingError extends ProblemError {
  constructor(
    private readonly path: string,
    private readonly reason: string,
  ) {
    super({
      status: 400,
      code: 'outside_operator_ceiling',
      title: 'Outside the operator ceiling',
      detail: `${path} ${reason}`,
    });
    this.name = 'OutsideCeilingError';
  }

  override toProblem(instance?: string): ProblemDocument & { errors: { path: string; message: string }[] } {
    return { ...super.toProblem(instance), errors: [{ path: this.path, message: this.reason }] };
  }
}

function outsideCeiling(path: string, metadata: boolean): ProblemError {
  return new OutsideCeilingError(
    path,
    metadata
      ? 'contains a cloud metadata address, which is never allowed.'
      : 'is outside the ceiling of every worker pool open to this tenant.',
  );
}

/**
 * `hostPolicy.put`: replaces the tenant's HostPolicy (tenant:write: owners and admins). Each entry must fit
 * at least one open pool's ceiling; the audit event names the fields that changed, not their values.
 */
@HandlesCommand(putHostPolicy)
export class PutHostPolicyUseCase implements UseCaseFor<typeof putHostPolicy> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof putHostPolicy>>) {
    // `childEnvKeys` absent keeps the stored narrowing (a client that predates the field, such as a form that
    // does not show it, must not widen it by saving); null resets it to each pool's own list.
    const givenEnvKeys = input.childEnvKeys;
    const ceilings = poolsOpenToTenant(this.pools, principal.tenantSlug).map((pool) => pool.ceiling);
    const check = checkAgainstCeilings({ ...input, childEnvKeys: givenEnvKeys ?? null }, ceilings);
    if (!check.ok) {
      const path = `${check.field}.${check.index}`;
      if (check.reason === 'invalid_cidr')
        throw new ValidationProblemError([{ path, message: 'must be a CIDR such as 10.0.0.0/8' }]);
      throw outsideCeiling(path, check.reason === 'metadata_range');
    }
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const before = hostPolicyOfRow(
        await tx.hostPolicy.findUnique({ where: { tenantId: principal.tenantId } }),
      );
      const wanted: TenantHostPolicy = {
        ...input,
        childEnvKeys: givenEnvKeys === undefined ? before.childEnvKeys : givenEnvKeys,
      };
      const data = {
        stdioCommands: input.stdioCommands,
        headerHelpers: input.headerHelpers,
        privateCidrs: input.privateCidrs,
        traceContextOrigins: input.traceContextOrigins,
        fourEyes: input.fourEyes,
        childEnvKeys: wanted.childEnvKeys === null ? JSON_DB_NULL : [...wanted.childEnvKeys],
        updatedBy: principal.userId,
      };
      const row = await tx.hostPolicy.upsert({
        where: { tenantId: principal.tenantId },
        create: { tenantId: principal.tenantId, ...data },
        update: data,
      });
      const changed = FIELDS.filter(
        (field) => JSON.stringify(before[field]) !== JSON.stringify(wanted[field]),
      );
      await appendLeaseChange(tx, 'host_policy_changed');
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'hostPolicy.put',
        target: { type: 'tenant', id: principal.tenantId },
        outcome: 'success',
        data: { changed },
      });
      return toHostPolicyView(row, this.pools, principal.tenantSlug);
    });
  }
}
