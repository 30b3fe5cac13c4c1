import { randomUUID } from 'node:crypto';
import { submitProbe, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { Database, TenantTx } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { leasedServerKeyOf } from '../held-leases/leased-server-key';
import { standingSubmittedLease } from '../held-leases/submitted-lease';
import { forbiddenCaller, ValidationProblemError } from '../shared/command-problems';

type Input = CommandInput<typeof submitProbe>;
type Output = CommandOutput<typeof submitProbe>;
type ProbeRow = Awaited<ReturnType<TenantTx['serverProbe']['upsert']>>;

/**
 * `probes.submit` (worker tokens, snapshots:write; decision 0078): the connection state a worker found for the
 * lease it holds. The lease is checked by the one check catalog.submit makes (standingSubmittedLease): a lease this
 * token does not hold is 404, an ended one 409 `lease_ended`, and so is one whose approval no longer holds now
 * (activation re-decided for its server; the lease is revoked here, even when no ledger event ended it). The row
 * is keyed by the LEASE's workspace, server, fingerprint and principal, replaced in one upsert. `failureClass` and `reason` go with `failed` and only with it.
 */
@HandlesCommand(submitProbe)
export class SubmitProbeUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
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
    const stored = await this.db.withTenant(principal.tenantId, async (tx) => {
      const held = await standingSubmittedLease(tx, this.cipher, { leaseId: input.leaseId, tokenId }, now);
      // Returned, not thrown: a lease the re-decision revoked stays revoked when this transaction commits.
      if (!held.ok) return held;
      const lease = held.lease;
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
      const row = await tx.serverProbe.upsert({
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
      return { ok: true as const, row };
    });
    if (!stored.ok) throw stored.problem;
    return probeViewOf(stored.row);
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
