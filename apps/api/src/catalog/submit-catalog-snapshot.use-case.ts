import { randomUUID } from 'node:crypto';
import { submitCatalogSnapshot, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import { catalogDocument, type CatalogDocument } from '@gatehouse/contracts';
import type { CatalogSnapshot, Database, Lease, TenantTx } from '@gatehouse/db';
import type { ProblemError } from '@gatehouse/platform';
import { Inject } from '@nestjs/common';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { CHANGE_NOTIFIER, type ChangeNotifier } from '../commands/long-poll/change-notifier.port';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { CLOCK, WORKER_POOLS, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { leaseCallerForLease, type LeaseCaller } from '../held-leases/lease-caller';
import { standingSubmittedLease } from '../held-leases/submitted-lease';
import { forbiddenCaller } from '../shared/command-problems';
import { snapshotMismatch } from './catalog-problems';
import { catalogSubmitAuditEvent } from './catalog-submit-audit';
import { catalogTopicOf } from '../commands/long-poll/catalog-topic';
import { leasedServerKeyOf } from '../held-leases/leased-server-key';

type Input = CommandInput<typeof submitCatalogSnapshot>;
type Output = CommandOutput<typeof submitCatalogSnapshot>;

type Submission =
  | { readonly ok: true; readonly snapshot: CatalogSnapshot }
  | { readonly ok: false; readonly problem: ProblemError };

/**
 * `catalog.submit` (worker tokens, snapshots:write): the catalog a worker discovered for the lease it holds. A
 * lease is checked by standingSubmittedLease, the one check probes.submit makes too: a lease this token does not
 * hold is a 404, an ended one 409 `lease_ended`, and so is one whose ground is gone now (activation re-decided for
 * the lease's one server; such a lease is revoked here, decision 0071), all under the audit head and a row lock.
 * A document that is not of the lease's server alone is 409 `snapshot_mismatch`. The snapshot is stored under the
 * LEASE's workspace, server, fingerprint and principal, so a worker can only ever describe what it was leased, and
 * replaces the current one in one upsert (a reader sees the old or the new, never half), deleting the discovery
 * failure reported for the same key in that transaction. Accepted and refused submissions are audited with the full identity (catalog-submit-audit),
 * a refusal in its own committed transaction before the problem is thrown. After commit, watchers of the
 * workspace's catalog are told.
 */
@HandlesCommand(submitCatalogSnapshot)
export class SubmitCatalogSnapshotUseCase implements UseCase<Input, Output> {
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
    const submission = await this.db.withTenant(caller.tenantId, (tx) => this.submit(tx, caller, input, now));
    if (!submission.ok) throw submission.problem;
    // After commit; a lost notification only makes a long-poll answer at its timeout (the port's contract).
    await this.changes.publish(catalogTopicOf(submission.snapshot.workspaceId));
    return snapshotView(submission.snapshot);
  }

  private async submit(tx: TenantTx, caller: LeaseCaller, input: Input, now: Date): Promise<Submission> {
    const refuse = async (
      lease: Lease | null,
      problem: ProblemError,
      reason: string | null = null,
    ): Promise<Submission> => {
      await appendAuditEvent(
        tx,
        catalogSubmitAuditEvent(caller, input.leaseId, lease, {
          accepted: false,
          code: problem.code,
          reason,
        }),
      );
      return { ok: false, problem };
    };
    const held = await standingSubmittedLease(
      tx,
      this.cipher,
      { leaseId: input.leaseId, tokenId: caller.tokenId },
      now,
    );
    if (!held.ok) return refuse(held.lease, held.problem, held.reason);
    const lease = held.lease;
    // The declaration's refinement already held the document to the contract; this gives the typed value.
    const parsed = catalogDocument.safeParse(input.document);
    const server = parsed.success ? theLeasedServer(parsed.data, lease) : null;
    if (!parsed.success || server === null) return refuse(lease, snapshotMismatch());

    const key = leasedServerKeyOf(lease);
    const data = {
      leaseId: lease.id,
      protocolVersion: server.identity.protocolVersion,
      serverVersion: server.identity.serverVersion,
      document: parsed.data,
      complete: server.complete,
      stale: server.stale,
      fetchedAt: new Date(server.fetchedAt),
      submittedAt: now,
    };
    const snapshot = await tx.catalogSnapshot.upsert({
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
    // The snapshot answers any failure reported for the same key: gone in the same transaction (decision 0142).
    await tx.catalogDiscoveryFailure.deleteMany({ where: key.unique });
    await appendAuditEvent(
      tx,
      catalogSubmitAuditEvent(caller, input.leaseId, lease, {
        accepted: true,
        snapshot,
        counts: {
          tools: server.tools.length,
          prompts: server.prompts.length,
          resources: server.resources.length + server.resourceTemplates.length,
        },
      }),
    );
    return { ok: true, snapshot };
  }
}

/** The document's one server, which must be the lease's; null when it is not. */
function theLeasedServer(document: CatalogDocument, lease: Lease): CatalogDocument['servers'][number] | null {
  const [server, ...others] = document.servers;
  if (server === undefined || others.length > 0 || server.identity.server !== lease.serverName) return null;
  return server;
}

function snapshotView(row: CatalogSnapshot): Output {
  return {
    id: row.id,
    leaseId: row.leaseId,
    workspaceId: row.workspaceId,
    serverName: row.serverName,
    definitionFingerprint: row.definitionFingerprint,
    principalUserId: row.principalUserId,
    protocolVersion: row.protocolVersion,
    serverVersion: row.serverVersion,
    complete: row.complete,
    stale: row.stale,
    fetchedAt: row.fetchedAt.toISOString(),
    submittedAt: row.submittedAt.toISOString(),
  };
}
