import { refreshCatalog, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { Database, TenantTx } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { AuditEventInput } from '../audit/audit-event';
import { auditSafeFields } from '../audit/audit-safe-text';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal, TenantPrincipal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { CLOCK, WORKER_POOLS, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { leaseAuditActor, leaseCallerForLease } from '../held-leases/lease-caller';
import { endedState } from '../held-leases/lease-ended';
import { serverNotLeasable } from '../effective-view/view-problems';
import { leaseEnded, notApproved } from '../held-leases/lease-problems';
import { auditActorOf, isTenantAdmin } from '../auth/audit-actor';
import { forbidden, notFound, ValidationProblemError } from '../shared/command-problems';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { refreshUnroutable } from './catalog-refresh-problems';
import {
  CatalogRefreshProducer,
  type RefreshTarget,
} from '../catalog-refresh-queue/catalog-refresh-producer';

type Input = CommandInput<typeof refreshCatalog>;
type Output = CommandOutput<typeof refreshCatalog>;

/** Who asked for which catalog, and why. */
interface Asked {
  readonly tenantId: string;
  readonly target: RefreshTarget;
  readonly reason: 'manual' | 'list_changed';
  readonly actor: AuditEventInput['actor'];
}

/**
 * `catalog.refresh` (decision 0077). A person (session or user token, catalog:refresh) asks for the catalog of a
 * workspace they see, for the workspace alone or a member's view (their own; owners and admins: anyone's). A lease
 * holder (worker or gateway token) reports a list_changed it saw on a live lease it holds: the lease names the
 * workspace, server and principal, which the input must match (else 404, as for a lease it does not hold). Then
 * the producer re-decides activation now, routes to a pool that may run the server and enqueues under the
 * idempotency key. Audited: `catalog.refresh.requested`, or `catalog.refresh.unroutable` when no pool may run it.
 */
@HandlesCommand(refreshCatalog)
export class RefreshCatalogUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
    @Inject(CatalogRefreshProducer) private readonly producer: CatalogRefreshProducer,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {}

  async execute({ principal, input }: UseCaseArgs<Input, Principal>): Promise<Output> {
    const asked =
      principal.type === 'tenant' && principal.via !== 'worker'
        ? await this.askedByPerson(principal, input)
        : await this.askedByHolder(principal, input);
    const outcome = await this.producer.refresh(asked.target, asked.reason, { actor: asked.actor });
    switch (outcome.outcome) {
      case 'not_found':
        throw notFound(outcome.what);
      case 'not_leasable':
        throw serverNotLeasable(outcome.entryStatus);
      case 'not_approved':
        throw notApproved({
          activationState: outcome.activationState,
          reasons: outcome.reasons,
          approvalRequestId: null,
        });
      case 'unroutable':
        throw refreshUnroutable(outcome.reason, outcome.refusals);
      case 'enqueued':
      case 'collapsed':
        break;
      default: {
        const unreachable: never = outcome;
        throw new Error(`unknown refresh outcome ${String(unreachable)}`);
      }
    }
    const { target } = asked;
    await this.db.withTenant(asked.tenantId, (tx) =>
      appendAuditEvent(tx, {
        actor: asked.actor,
        action: 'catalog.refresh.requested',
        target: { type: 'workspace', id: target.workspaceId },
        outcome: 'success',
        data: {
          ...auditSafeFields({ serverName: target.serverName }),
          principalUserId: target.principalUserId,
          reason: asked.reason,
          pool: outcome.pool,
          definitionFingerprint: outcome.definitionFingerprint,
          collapsed: outcome.outcome === 'collapsed',
        },
      }),
    );
    return {
      outcome: outcome.outcome,
      workspaceId: target.workspaceId,
      serverName: target.serverName,
      principalUserId: target.principalUserId,
      definitionFingerprint: outcome.definitionFingerprint,
      pool: outcome.pool,
      reason: asked.reason,
    };
  }

  private async askedByPerson(principal: TenantPrincipal, input: Input): Promise<Asked> {
    if (input.leaseId !== undefined)
      throw new ValidationProblemError([{ path: 'leaseId', message: 'only lease holders name a lease' }]);
    const principalUserId = input.principalUserId?.toLowerCase() ?? null;
    if (principalUserId !== null && principalUserId !== principal.userId && !isTenantAdmin(principal))
      throw forbidden("Only owners and admins refresh another member's catalog.");
    const workspaceId = await this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
      if (principalUserId !== null) await assertMember(tx, principal.tenantId, principalUserId);
      return workspace.id;
    });
    return {
      tenantId: principal.tenantId,
      target: { tenantId: principal.tenantId, workspaceId, serverName: input.serverName, principalUserId },
      reason: 'manual',
      actor: auditActorOf(principal),
    };
  }

  private async askedByHolder(principal: Principal, input: Input): Promise<Asked> {
    const leaseId = input.leaseId;
    if (leaseId === undefined)
      throw new ValidationProblemError([
        { path: 'leaseId', message: 'a lease holder names the lease it saw the change on' },
      ]);
    const caller = await leaseCallerForLease(this.db, this.pools, principal, leaseId);
    const now = this.clock();
    const lease = await this.db.withTenant(caller.tenantId, async (tx) => {
      const held = await tx.lease.findFirst({ where: { id: leaseId, tokenId: caller.tokenId } });
      if (held === null) throw notFound('lease');
      const ended = endedState(held, now);
      if (ended !== null) throw leaseEnded(ended.state, ended.reason);
      return held;
    });
    const named =
      lease.workspaceId === input.workspaceId.toLowerCase() &&
      lease.serverName === input.serverName &&
      (input.principalUserId === undefined ||
        (input.principalUserId?.toLowerCase() ?? null) === lease.principalUserId);
    // The input says which catalog it means; one that is not the lease's reads like a lease it does not hold.
    if (!named) throw notFound('lease');
    return {
      tenantId: caller.tenantId,
      target: {
        tenantId: caller.tenantId,
        workspaceId: lease.workspaceId,
        serverName: lease.serverName,
        principalUserId: lease.principalUserId,
      },
      reason: 'list_changed',
      actor: leaseAuditActor(caller),
    };
  }
}

/** A principal named for the catalog must be a member of this tenant; anyone else reads like an unknown id. */
async function assertMember(tx: TenantTx, tenantId: string, userId: string): Promise<void> {
  const membership = await tx.membership.findUnique({
    where: { tenantId_userId: { tenantId, userId } },
    select: { id: true },
  });
  if (membership === null) throw notFound('member');
}
