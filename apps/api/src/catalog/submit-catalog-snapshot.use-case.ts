import { randomUUID } from 'node:crypto';
import { submitCatalogSnapshot, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import { catalogDocument, type CatalogDocument } from '@gatehouse/contracts';
import type { CatalogSnapshot, Database, Lease } from '@gatehouse/db';
import { Inject, Optional } from '@nestjs/common';
import type { Principal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { forbiddenCaller, notFound } from '../shared/command-problems';
import { CHANGE_NOTIFIER, type ChangeNotifier } from '../commands/long-poll/change-notifier.port';
import { HandlesCommand } from '../commands/registry/handles-command.decorator';
import { CLOCK, type Clock } from '../infrastructure/command-deps.tokens';
import { DATABASE } from '../infrastructure/infrastructure.tokens';
import { leaseEnded } from '../leases/lease-problems';
import { endedState } from '../leases/lease-ended';
import { snapshotMismatch } from './catalog-problems';
import { catalogTopicOf } from './catalog-topic';

type Input = CommandInput<typeof submitCatalogSnapshot>;
type Output = CommandOutput<typeof submitCatalogSnapshot>;

/**
 * `catalog.submit` (worker tokens, snapshots:write): the catalog a worker discovered for the lease it holds. A
 * lease this token does not hold is a 404 (another token's, another tenant's, none); a released, revoked or
 * expired one is 409 `lease_ended`; a document that is not of the lease's server alone is 409
 * `snapshot_mismatch`. The snapshot is stored under the LEASE's workspace, server, fingerprint and principal, so
 * a worker can only ever describe what it was leased, and replaces the current one in one upsert (a reader sees
 * the old or the new, never half). After commit, watchers of the workspace's catalog are told.
 */
@HandlesCommand(submitCatalogSnapshot)
export class SubmitCatalogSnapshotUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
    @Optional() @Inject(CHANGE_NOTIFIER) private readonly changes: ChangeNotifier | null = null,
  ) {}

  async execute({ principal, input }: UseCaseArgs<Input, Principal>): Promise<Output> {
    // The declaration admits worker tokens only; anything else reaching here is a bug.
    if (principal.type !== 'tenant' || principal.via !== 'worker' || principal.tokenId === null)
      throw forbiddenCaller(principal.type === 'tenant' ? principal.via : 'gateway');
    const tokenId = principal.tokenId;
    const parsed = catalogDocument.safeParse(input.document);
    // The declaration's refinement already held it to the contract; this gives the typed value.
    if (!parsed.success) throw snapshotMismatch();
    const now = this.clock();
    const snapshot = await this.db.withTenant(principal.tenantId, async (tx) => {
      const lease = await tx.lease.findFirst({ where: { id: input.leaseId, tokenId } });
      if (lease === null) throw notFound('lease');
      const ended = endedState(lease, now);
      if (ended !== null) throw leaseEnded(ended.state, ended.reason);
      const server = theLeasedServer(parsed.data, lease);
      const principalKey = lease.principalUserId ?? 'workspace';
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
      return tx.catalogSnapshot.upsert({
        where: {
          tenantId_workspaceId_serverName_definitionFingerprint_principalKey: {
            tenantId: lease.tenantId,
            workspaceId: lease.workspaceId,
            serverName: lease.serverName,
            definitionFingerprint: lease.definitionFingerprint,
            principalKey,
          },
        },
        create: {
          id: randomUUID(),
          tenantId: lease.tenantId,
          workspaceId: lease.workspaceId,
          serverName: lease.serverName,
          definitionFingerprint: lease.definitionFingerprint,
          principalUserId: lease.principalUserId,
          principalKey,
          ...data,
        },
        update: data,
      });
    });
    // After commit; a lost notification only makes a long-poll answer at its timeout (the port's contract).
    await this.changes?.publish(catalogTopicOf(snapshot.workspaceId));
    return snapshotView(snapshot);
  }
}

/** The document's one server, which must be the lease's. */
function theLeasedServer(document: CatalogDocument, lease: Lease): CatalogDocument['servers'][number] {
  const [server, ...others] = document.servers;
  if (server === undefined || others.length > 0 || server.identity.server !== lease.serverName)
    throw snapshotMismatch();
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
