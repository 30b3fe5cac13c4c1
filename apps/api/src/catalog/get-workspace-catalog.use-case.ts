import { randomUUID } from 'node:crypto';
import { buildWorkspaceCatalog, type ChosenCatalogSnapshot } from '@gatehouse/catalog';
import { getWorkspaceCatalog, type CommandInput } from '@gatehouse/commands';
import {
  MAX_WORKSPACE_CATALOG_BYTES,
  discoveryFailureViewOf,
  type DiscoveryFailureView,
  type ServerCatalogV1,
  type WorkspaceCatalogV1,
} from '@gatehouse/contracts';
import {
  findCatalogSnapshotVersions,
  loadCatalogSnapshotContents,
  readCatalogInputVersions,
  type CatalogSnapshotContent,
  type CatalogDiscoveryFailure,
  type CatalogSnapshotVersion,
  type Database,
} from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { awaitChange } from '../commands/long-poll/await-change';
import { CHANGE_NOTIFIER, type ChangeNotifier } from '../commands/long-poll/change-notifier.port';
import { TaggedRead } from '../commands/long-poll/tagged-read';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { EffectiveView } from '../effective-view/effective-view.service';
import { CLOCK, WORKER_POOLS, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { assertCatalogPrincipal, catalogReaderOf, type CatalogReader } from './catalog-reader';
import { catalogTenantTopicOf, catalogTopicOf } from '../commands/long-poll/catalog-topic';
import {
  WORKSPACE_PRINCIPAL_KEY,
  approvedServersOf,
  catalogTagOf,
  chooseSnapshots,
  principalKeysFor,
  sameInputs,
  type ApprovedServer,
} from './catalog-version';
import { notFound } from '../shared/command-problems';

/** A read retried while what it reads keeps changing under it, before it answers with a tag nobody holds. */
const STABLE_READ_ATTEMPTS = 3;

type Input = CommandInput<typeof getWorkspaceCatalog>;

/**
 * `catalog.get` (catalog:read; sessions, user, agent, worker and gateway tokens): the catalog lease of one
 * workspace for the caller's principal (catalogReaderOf). Activation is re-decided now for the principal's view
 * (the effective view's decision), and every approved server is listed with the snapshot posted for its exact
 * fingerprint, or as pending discovery (with the discovery failure a worker reported for it, decision 0142). The
 * entity tag is computed from the versions of every input (readCatalogInputVersions, one round trip) before
 * anything is decided or loaded (catalogTagOf), so a
 * conditional request the client is current for costs that one read: no activation, no document, no build and no
 * hash of the body (decision 0075). A long-poll watches the workspace's and the tenant's catalog topics, which
 * catalog.submit, approvals and the revocation relay publish after commit.
 */
@HandlesCommand(getWorkspaceCatalog)
export class GetWorkspaceCatalogUseCase implements UseCase<Input, TaggedRead> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(EffectiveView) private readonly views: EffectiveView,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
    @Inject(CHANGE_NOTIFIER) private readonly changes: ChangeNotifier,
  ) {}

  async execute({
    principal,
    input,
    signal,
    wait,
    clientHasTag,
  }: UseCaseArgs<Input, Principal>): Promise<TaggedRead> {
    const reader = await catalogReaderOf(this.db, this.pools, principal, input);
    const read = () => this.read(reader, input.workspaceId.toLowerCase(), clientHasTag);
    const requestSignal = signal ?? new AbortController().signal;
    return awaitChange({
      wait,
      signal: requestSignal,
      changes: this.changes,
      topic: [catalogTopicOf(input.workspaceId), catalogTenantTopicOf(reader.tenantId)],
      read,
    });
  }

  /**
   * One answer: the inputs' versions first (one round trip), which is all a hit costs; on a miss the catalog is
   * built and the versions read again, and the tag is given only when nothing changed in between, so a tag never
   * names two bodies. Inputs that keep changing under the read get a tag no client holds (it refetches).
   */
  private async read(
    reader: CatalogReader,
    workspaceId: string,
    clientHasTag: ((tag: string) => boolean) | undefined,
  ): Promise<TaggedRead> {
    const bound = reader.boundWorkspaceIds;
    if (bound.length > 0 && !bound.includes(workspaceId)) throw notFound('workspace');
    const fingerprintKeyId = this.views.fingerprintKeyIdOf(reader.tenantId);
    for (let attempt = 0; attempt < STABLE_READ_ATTEMPTS; attempt += 1) {
      const now = this.clock();
      const versions = () =>
        readCatalogInputVersions(this.db, reader.tenantId, {
          workspaceId,
          principalUserId: reader.principalUserId,
          now,
        });
      const before = await versions();
      // Invisible workspace or a named stranger: the build answers the 404.
      const answerable = before.workspace !== null && (!reader.checksMember || before.member);
      const tag = catalogTagOf({
        tenantId: reader.tenantId,
        workspaceId,
        principalUserId: reader.principalUserId,
        fingerprintKeyId,
        versions: before,
      });
      if (answerable && clientHasTag?.(tag) === true) return TaggedRead.unchanged(tag);
      const catalog = await this.build(reader, workspaceId, now);
      if (sameInputs(before, await versions())) return TaggedRead.of(tag, catalog);
    }
    return TaggedRead.of(`"volatile-${randomUUID()}"`, await this.build(reader, workspaceId, this.clock()));
  }

  /** The catalog itself: activation decided for the principal's view, the chosen snapshots loaded and assembled. */
  private build(reader: CatalogReader, workspaceId: string, now: Date): Promise<WorkspaceCatalogV1> {
    return this.db.withTenant(reader.tenantId, async (tx) => {
      const workspace = await reader.findWorkspace(tx, workspaceId);
      await assertCatalogPrincipal(tx, reader);
      const principalUserId = reader.principalUserId;
      const view = await this.views.ofWorkspace(tx, {
        tenantId: reader.tenantId,
        workspace,
        userId: principalUserId,
        now,
      });
      const servers = approvedServersOf(view);
      const candidates = await findCatalogSnapshotVersions(tx, {
        workspaceId: workspace.id,
        serverNames: servers.map((server) => server.name),
        principalKeys: principalKeysFor(principalUserId),
      });
      const chosen = chooseSnapshots(servers, candidates, principalUserId);
      const failures = chooseSnapshots(
        servers,
        await tx.catalogDiscoveryFailure.findMany({
          where: {
            workspaceId: workspace.id,
            serverName: { in: servers.map((server) => server.name) },
            principalKey: { in: principalKeysFor(principalUserId) },
          },
        }),
        principalUserId,
      );
      const ids = [...chosen.values()].flatMap((row) => (row === null ? [] : [row.id]));
      const contents = await loadCatalogSnapshotContents(tx, { ids, maxBytes: MAX_WORKSPACE_CATALOG_BYTES });
      const byServer = new Map(contents.map((content) => [content.serverName, content]));
      return buildWorkspaceCatalog({
        workspaceId: workspace.id,
        principalUserId,
        servers: servers.map((server) => ({
          server,
          snapshot: chosenSnapshotOf(
            usableContent(byServer.get(server.name), server),
            chosen.get(server.name) ?? null,
            server,
          ),
          discoveryFailure: discoveryFailureOf(failures.get(server.name) ?? null),
        })),
      });
    });
  }
}

function discoveryFailureOf(row: CatalogDiscoveryFailure | null): DiscoveryFailureView | null {
  return row === null ? null : discoveryFailureViewOf({ ...row, at: row.failedAt });
}

/** A loaded row describes the server only if its document (when loaded) is that server's alone. */
function usableContent(
  content: CatalogSnapshotContent | undefined,
  server: ApprovedServer,
): CatalogSnapshotContent | null {
  if (content === undefined) return null;
  if (content.document !== null && serverCatalogOf(content.document, server.name) === null) return null;
  return content;
}

function chosenSnapshotOf(
  content: CatalogSnapshotContent | null,
  version: CatalogSnapshotVersion | null,
  server: ApprovedServer,
): ChosenCatalogSnapshot | null {
  if (content === null || version === null) return null;
  return {
    discoveredFor: version.principalKey === WORKSPACE_PRINCIPAL_KEY ? 'workspace' : 'principal',
    identity: {
      server: server.name,
      protocolVersion: content.protocolVersion,
      serverVersion: content.serverVersion,
    },
    complete: content.complete,
    stale: content.stale,
    fetchedAt: content.fetchedAt.toISOString(),
    catalog: content.document === null ? null : serverCatalogOf(content.document, server.name),
  };
}

/**
 * The stored document's one server. catalog.submit held it to the contract and to the lease's server; a row
 * that is not that (written by another version) is not used rather than trusted.
 */
function serverCatalogOf(document: unknown, serverName: string): ServerCatalogV1 | null {
  if (typeof document !== 'object' || document === null) return null;
  const { v, servers } = document as { v?: unknown; servers?: unknown };
  if (v !== 1 || !Array.isArray(servers) || servers.length !== 1) return null;
  const server = servers[0] as ServerCatalogV1;
  return server?.identity?.server === serverName ? server : null;
}
