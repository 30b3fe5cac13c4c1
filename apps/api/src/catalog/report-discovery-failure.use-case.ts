import { randomUUID } from 'node:crypto';
import { reportDiscoveryFailure, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import { discoveryFailureViewOf, type DiscoveryFailureReport } from '@gatehouse/contracts';
import type { CatalogDiscoveryFailure, Database, Lease, TenantTx } from '@gatehouse/db';
import type { ProblemError } from '@gatehouse/platform';
import { Inject } from '@nestjs/common';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { CHANGE_NOTIFIER, type ChangeNotifier } from '../commands/long-poll/change-notifier.port';
import { catalogTopicOf } from '../commands/long-poll/catalog-topic';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { leaseCallerForLease, type LeaseCaller } from '../held-leases/lease-caller';
import { leasedServerKeyOf } from '../held-leases/leased-server-key';
import { standingSubmittedLease } from '../held-leases/submitted-lease';
import { CLOCK, WORKER_POOLS, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { forbiddenCaller } from '../shared/command-problems';
import { discoveryFailureAuditEvent } from './discovery-failure-audit';

type Input = CommandInput<typeof reportDiscoveryFailure>;
type Output = CommandOutput<typeof reportDiscoveryFailure>;

type Report =
  | { readonly ok: true; readonly row: CatalogDiscoveryFailure }
  | { readonly ok: false; readonly problem: ProblemError };

/**
 * `catalog.reportFailure` (worker tokens, snapshots:write; decision 0142): why a worker could not discover the
 * server it leased. Authorised exactly as catalog.submit: the lease is checked by standingSubmittedLease under the
 * audit head (a lease this token does not hold is 404, an ended or revoked one 409 `lease_ended`, and one whose
 * approval no longer holds is revoked here and refused), and the row is keyed by the LEASE's workspace, server,
 * fingerprint and principal, so a worker can only speak of what it was leased. The body is two words from closed
 * lists (the command's input schema refuses anything else with a 400 before this runs); one upsert replaces the
 * previous report. Accepted and refused reports are audited; watchers of the workspace's catalog are told after
 * commit, since the catalog shows the failure on the pending server.
 */
@HandlesCommand(reportDiscoveryFailure)
export class ReportDiscoveryFailureUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
    @Inject(CHANGE_NOTIFIER) private readonly changes: ChangeNotifier,
  ) {}

  async execute({ principal, input }: UseCaseArgs<Input, Principal>): Promise<Output> {
    // The declaration admits worker tokens only; anything else reaching here is a bug.
    if (principal.type !== 'tenant' || principal.via !== 'worker')
      throw forbiddenCaller(principal.type === 'tenant' ? principal.via : 'gateway');
    const caller = await leaseCallerForLease(this.db, this.pools, principal, input.leaseId);
    const now = this.clock();
    const report = { failureClass: input.failureClass, reason: input.reason };
    const stored = await this.db.withTenant(caller.tenantId, (tx) =>
      this.store(tx, caller, input.leaseId, report, now),
    );
    if (!stored.ok) throw stored.problem;
    // After commit; a lost notification only makes a long-poll answer at its timeout (the port's contract).
    await this.changes.publish(catalogTopicOf(stored.row.workspaceId));
    return {
      leaseId: stored.row.leaseId,
      workspaceId: stored.row.workspaceId,
      serverName: stored.row.serverName,
      definitionFingerprint: stored.row.definitionFingerprint,
      principalUserId: stored.row.principalUserId,
      failure: discoveryFailureViewOf({ ...stored.row, at: stored.row.failedAt }),
    };
  }

  private async store(
    tx: TenantTx,
    caller: LeaseCaller,
    leaseId: string,
    report: DiscoveryFailureReport,
    now: Date,
  ): Promise<Report> {
    const held = await standingSubmittedLease(tx, this.cipher, { leaseId, tokenId: caller.tokenId }, now);
    if (!held.ok) {
      // Returned, not thrown: the refusal's audit row (and a revocation the re-decision made) commit.
      await this.audit(tx, caller, leaseId, held.lease, report, {
        accepted: false,
        code: held.problem.code,
        reason: held.reason,
      });
      return { ok: false, problem: held.problem };
    }
    const lease = held.lease;
    const key = leasedServerKeyOf(lease);
    const data = { leaseId: lease.id, ...report, failedAt: now };
    const row = await tx.catalogDiscoveryFailure.upsert({
      where: { tenantId_workspaceId_serverName_definitionFingerprint_principalKey: key.unique },
      create: { id: randomUUID(), ...key.identity, ...data },
      update: data,
    });
    await this.audit(tx, caller, leaseId, lease, report, { accepted: true });
    return { ok: true, row };
  }

  private audit(
    tx: TenantTx,
    caller: LeaseCaller,
    leaseId: string,
    lease: Lease | null,
    report: DiscoveryFailureReport,
    outcome: Parameters<typeof discoveryFailureAuditEvent>[4],
  ) {
    return appendAuditEvent(tx, discoveryFailureAuditEvent(caller, leaseId, lease, report, outcome));
  }
}
