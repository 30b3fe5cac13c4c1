import { type CommandInput, type CommandOutput, getServerStatus } from '@gatehouse/commands';
import { discoveryFailureViewOf } from '@gatehouse/contracts';
import type { CatalogDiscoveryFailure, Database, Lease, TenantTx } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import type { TenantPrincipal } from '../auth/principal';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { newestFirst, olderThan } from '../shared/pagination/keyset-newest-first';
import { positionAfter, toPage } from '../shared/pagination/keyset-page';
import { findVisibleWorkspace } from '../auth/workspace-visibility';

type Input = CommandInput<typeof getServerStatus>;
type Output = CommandOutput<typeof getServerStatus>;
type Holder = Output['leaseHolders']['items'][number];
type ServerProbe = NonNullable<Awaited<ReturnType<TenantTx['serverProbe']['findFirst']>>>;

const LIST = 'server-lease-holders';

/**
 * `servers.status` (decision 0099): the newest probe of the workspace alone and of the caller, the newest
 * discovery failure of each (decision 0142), and the live leases
 * of the server, newest issued first. Owners and admins see every principal's leases (they may act for any
 * member); anyone else the workspace alone's and their own, as catalog.refresh lets them. Row-level security
 * keeps the tenant; a platform gateway token is not the tenant's row, so it is named by its kind alone.
 */
@HandlesCommand(getServerStatus)
export class GetServerStatusUseCase implements UseCaseFor<typeof getServerStatus> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {}

  async execute({ principal, input }: UseCaseArgs<Input, TenantPrincipal>): Promise<Output> {
    const position = positionAfter(LIST, input.cursor);
    const now = this.clock();
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
      const where = { workspaceId: workspace.id, serverName: input.serverName };
      const probes = await newestProbes(tx, where, principal.userId);
      const failures = await newestDiscoveryFailures(tx, where, principal.userId);
      const rows = await tx.lease.findMany({
        where: {
          ...where,
          releasedAt: null,
          revokedAt: null,
          expiresAt: { gt: now },
          // Both are OR lists: under AND, so the page position never replaces whose leases one may see.
          AND: [principalsSeenBy(principal), olderThan(position, 'issuedAt')],
        },
        orderBy: newestFirst('issuedAt'),
        take: input.limit + 1,
      });
      const names = await holderNames(tx, rows);
      return {
        workspaceId: workspace.id,
        serverName: input.serverName,
        probes: probes.map(probeStatusOf),
        discoveryFailures: failures.map((row) => ({
          principalUserId: row.principalUserId,
          definitionFingerprint: row.definitionFingerprint,
          failure: discoveryFailureViewOf({ ...row, at: row.failedAt }),
        })),
        leaseHolders: toPage(
          LIST,
          rows,
          input.limit,
          (row) => ({ at: row.issuedAt, id: row.id }),
          (row) => holderOf(row, names),
        ),
      };
    });
  }
}

function principalsSeenBy(principal: TenantPrincipal): object {
  if (principal.role === 'owner' || principal.role === 'admin') return {};
  return {
    OR: [{ principalUserId: null }, ...(principal.userId ? [{ principalUserId: principal.userId }] : [])],
  };
}

/** The newest report for the workspace alone, then the caller's own (any fingerprint). */
async function newestProbes(
  tx: TenantTx,
  where: { workspaceId: string; serverName: string },
  userId: string | null,
): Promise<ServerProbe[]> {
  const keys = userId === null ? ['workspace'] : ['workspace', userId];
  const found = await Promise.all(
    keys.map((principalKey) =>
      tx.serverProbe.findFirst({
        where: { ...where, principalKey },
        orderBy: [{ probedAt: 'desc' }, { id: 'desc' }],
      }),
    ),
  );
  return found.filter((probe): probe is ServerProbe => probe !== null);
}

/** The newest discovery failure reported for the workspace alone, then the caller's own (any fingerprint). */
async function newestDiscoveryFailures(
  tx: TenantTx,
  where: { workspaceId: string; serverName: string },
  userId: string | null,
): Promise<CatalogDiscoveryFailure[]> {
  const keys = userId === null ? ['workspace'] : ['workspace', userId];
  const found = await Promise.all(
    keys.map((principalKey) =>
      tx.catalogDiscoveryFailure.findFirst({
        where: { ...where, principalKey },
        orderBy: [{ failedAt: 'desc' }, { id: 'desc' }],
      }),
    ),
  );
  return found.filter((row): row is CatalogDiscoveryFailure => row !== null);
}

interface HolderNames {
  readonly tokens: ReadonlyMap<string, string>;
  readonly users: ReadonlyMap<string, string>;
}

async function holderNames(tx: TenantTx, rows: readonly Lease[]): Promise<HolderNames> {
  const tokenIds = [...new Set(rows.map((row) => row.tokenId))];
  const userIds = [...new Set(rows.flatMap((row) => (row.principalUserId ? [row.principalUserId] : [])))];
  const [tokens, users] = await Promise.all([
    tokenIds.length === 0
      ? []
      : tx.apiToken.findMany({ where: { id: { in: tokenIds } }, select: { id: true, name: true } }),
    userIds.length === 0
      ? []
      : tx.user.findMany({ where: { id: { in: userIds } }, select: { id: true, displayName: true } }),
  ]);
  return {
    tokens: new Map(tokens.map((token) => [token.id, token.name])),
    users: new Map(users.map((user) => [user.id, user.displayName])),
  };
}

function holderOf(row: Lease, names: HolderNames): Holder {
  return {
    leaseId: row.id,
    token: { id: row.tokenId, kind: row.tokenKind, name: names.tokens.get(row.tokenId) ?? null },
    pool: row.pool,
    principal:
      row.principalUserId === null
        ? null
        : { userId: row.principalUserId, displayName: names.users.get(row.principalUserId) ?? null },
    definitionFingerprint: row.definitionFingerprint,
    issuedAt: row.issuedAt.toISOString(),
    renewedAt: row.renewedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
  };
}

function probeStatusOf(row: ServerProbe): Output['probes'][number] {
  return {
    principalUserId: row.principalUserId,
    state: row.state === 'ready' ? 'ready' : 'failed',
    failureClass: (row.failureClass as Output['probes'][number]['failureClass']) ?? null,
    reason: row.reason,
    definitionFingerprint: row.definitionFingerprint,
    protocolVersion: row.protocolVersion,
    serverVersion: row.serverVersion,
    probedAt: row.probedAt.toISOString(),
  };
}
