import { renewLease, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { Database, Lease } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import { appendAuditEvent, lockAuditChain } from '../audit/append-audit-event';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { CLOCK, WORKER_POOLS, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { endedState } from '../held-leases/lease-ended';
import { leaseCallerForLease } from '../held-leases/lease-caller';
import { leaseExpiryOf } from './lease-expiry';
import { decideLeaseStanding } from '../held-leases/lease-standing';
import { leaseEnded } from '../held-leases/lease-problems';
import { leaseStateOf } from './lease-state-view';
import { leaseAuditEvent } from './lease-audit';

type Input = CommandInput<typeof renewLease>;
type Output = CommandOutput<typeof renewLease>;

type Renewal =
  | { readonly ok: true; readonly lease: Lease }
  | {
      readonly ok: false;
      readonly state: 'released' | 'revoked' | 'expired';
      readonly reason: string | null;
    };

/**
 * `leases.renew`: only by the token that holds the lease (any other token, of this tenant or another, gets 404).
 * A released, revoked (a ledger event ended it: decision 0071) or expired lease is refused (409 `lease_ended`).
 * Otherwise activation is re-decided for the lease's server, view and principal (decideLeaseStanding): unless an
 * approval still in force approves exactly what the lease was issued for, the lease is revoked now and the
 * renewal refused. A renewed lease ends at the earliest of a fresh TTL and the approval's expiry, and for a
 * server that declares OAuth never later than it did (its access token). Refusals are audited and committed first.
 */
@HandlesCommand(renewLease)
export class RenewLeaseUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {}

  async execute({ principal, input }: UseCaseArgs<Input, Principal>): Promise<Output> {
    const caller = await leaseCallerForLease(this.db, this.pools, principal, input.leaseId);
    const now = this.clock();
    const renewal = await this.db.withTenant(caller.tenantId, async (tx): Promise<Renewal> => {
      const lease = await tx.lease.findFirst({ where: { id: input.leaseId, tokenId: caller.tokenId } });
      if (lease === null) throw notFound('lease');
      const subject = {
        workspaceId: lease.workspaceId,
        serverName: lease.serverName,
        principalUserId: lease.principalUserId,
      };
      const ended = endedState(lease, now);
      if (ended !== null) {
        await appendAuditEvent(
          tx,
          leaseAuditEvent(caller, 'leases.renewal_refused', lease.id, subject, {
            leaseState: ended.state,
            reason: ended.reason,
          }),
        );
        return { ok: false, ...ended };
      }
      const standing = await decideLeaseStanding(tx, this.cipher, lease, now);
      // The audit head before the lease row (the one lock order of lease writers, decision 0071), then the row
      // again: a ledger event that ended it while activation was re-decided is seen here.
      await lockAuditChain(tx);
      const meanwhile = await tx.lease.findUniqueOrThrow({ where: { id: lease.id } });
      const endedMeanwhile = endedState(meanwhile, now);
      if (endedMeanwhile !== null) {
        await appendAuditEvent(
          tx,
          leaseAuditEvent(caller, 'leases.renewal_refused', lease.id, subject, {
            leaseState: endedMeanwhile.state,
            reason: endedMeanwhile.reason,
          }),
        );
        return { ok: false, ...endedMeanwhile };
      }
      if (!standing.holds) {
        const { reason } = standing;
        await tx.lease.update({ where: { id: lease.id }, data: { revokedAt: now, revokedReason: reason } });
        await appendAuditEvent(
          tx,
          leaseAuditEvent(caller, 'leases.renewal_refused', lease.id, subject, {
            leaseState: 'revoked',
            reason,
          }),
        );
        return { ok: false, state: 'revoked', reason };
      }
      // A lease that carries an access token never outlives it. The token's expiry is not kept, only the lease's
      // end (no later than it), so such a lease is re-decided here but not lengthened: its holder asks for a new
      // lease, which carries a fresh token.
      const fresh = leaseExpiryOf(now, standing.approvalExpiresAt);
      const expiresAt = standing.carriesAccessToken
        ? new Date(Math.min(fresh.getTime(), lease.expiresAt.getTime()))
        : fresh;
      const renewed = await tx.lease.update({
        where: { id: lease.id },
        data: { expiresAt, renewedAt: now },
      });
      await appendAuditEvent(
        tx,
        leaseAuditEvent(caller, 'leases.renewed', lease.id, subject, {
          approvalId: standing.approvalId,
          definitionFingerprint: lease.definitionFingerprint,
          expiresAt: expiresAt.toISOString(),
        }),
      );
      return { ok: true, lease: renewed };
    });
    if (!renewal.ok) throw leaseEnded(renewal.state, renewal.reason);
    return leaseStateOf(renewal.lease);
  }
}
