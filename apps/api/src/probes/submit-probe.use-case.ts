import { randomUUID } from 'node:crypto';
import { submitProbe, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { Database, TenantTx } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command.decorator';
import { CLOCK, type Clock } from '../infrastructure/command-deps.tokens';
import { DATABASE } from '../infrastructure/infrastructure.tokens';
import { endedState } from '../leases/lease-ended';
import { leaseEnded } from '../leases/lease-problems';
import { forbiddenCaller, notFound, ValidationProblemError } from '../shared/command-problems';
import { leasedServerKeyOf } from '../leases/leased-server.key';

type Input = CommandInput<typeof submitProbe>;
type Output = CommandOutput<typeof submitProbe>;
type ProbeRow = Awaited<ReturnType<TenantTx['serverProbe']['upsert']>>;

/**
 * `probes.submit` (worker tokens, snapshots:write; decision 0078): the connection state a worker found for the
 * lease it holds. As for `catalog.submit`: a lease this token does not hold is 404, an ended one 409
 * `lease_ended`, and the row is keyed by the LEASE's workspace, server, fingerprint and principal, replaced in one
 * upsert. `failureClass` and `reason` go with `failed` and only with it.
 */
@HandlesCommand(submitProbe)
export class SubmitProbeUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {}

  async execute({ principal, input }: UseCaseArgs<Input, Principal>): Promise<Output> {
    if (principal.type !== 'tenant' || principal.via !== 'worker' || principal.tokenId === null)
      throw forbiddenCaller(principal.type === 'tenant' ? principal.via : 'gateway');
    const failed = input.state === 'failed';
    if (failed !== (input.failureClass !== null) || failed !== (input.reason !== null))
      throw new ValidationProblemError([
        {
          path: 'failureClass',
          message: 'failureClass and reason are given exactly when the state is failed',
        },
      ]);
    const tokenId = principal.tokenId;
    const now = this.clock();
    const row = await this.db.withTenant(principal.tenantId, async (tx) => {
      const lease = await tx.lease.findFirst({ where: { id: input.leaseId, tokenId } });
      if (lease === null) throw notFound('lease');
      const ended = endedState(lease, now);
      if (ended !== null) throw leaseEnded(ended.state, ended.reason);
      const key = leasedServerKeyOf(lease);
      const data = {
        leaseId: lease.id,
        state: input.state,
        failureClass: input.failureClass,
        reason: input.reason,
        protocolVersion: input.protocolVersion,
        serverVersion: input.serverVersion,
        probedAt: now,
      };
      return tx.serverProbe.upsert({
        where: {
          tenantId_workspaceId_serverName_definitionFingerprint_principalKey: key.unique,
        },
        create: {
          id: randomUUID(),
          ...key.identity,
          ...data,
        },
        update: data,
      });
    });
    return probeViewOf(row);
  }
}

function probeViewOf(row: ProbeRow): Output {
  return {
    id: row.id,
    leaseId: row.leaseId,
    workspaceId: row.workspaceId,
    serverName: row.serverName,
    definitionFingerprint: row.definitionFingerprint,
    principalUserId: row.principalUserId,
    state: row.state === 'ready' ? 'ready' : 'failed',
    failureClass: (row.failureClass as Output['failureClass']) ?? null,
    reason: row.reason,
    protocolVersion: row.protocolVersion,
    serverVersion: row.serverVersion,
    probedAt: row.probedAt.toISOString(),
  };
}
