import { createHash } from 'node:crypto';
import type { ApprovedCatalogServer, CatalogOptions, ServerOptions } from '@gatehouse/catalog';
import type { CatalogInputVersions, CatalogSnapshotVersion } from '@gatehouse/db';
import type { EvaluatedView } from '../effective-view/effective-views';

/** The workspace's own discoveries are stored under this principal key (catalog_snapshots.principal_key). */
export const WORKSPACE_PRINCIPAL_KEY = 'workspace';

/** A server approved for the principal now, and whether only the principal's own discovery may describe it. */
export interface ApprovedServer extends ApprovedCatalogServer {
  readonly perUser: boolean;
}

/** Every entry of the view that is approved now (activation re-decided by the caller: the effective view's). */
export function approvedServersOf(view: EvaluatedView): ApprovedServer[] {
  const approved: ApprovedServer[] = [];
  for (const { entry, activationEntry, decision } of view.entries) {
    if (decision.state !== 'approved' || !activationEntry.usable) continue;
    const tier = activationEntry.source.tier;
    // The approved definition's catalog options (its redacted projection: options hold no secret).
    const options = entry.status === 'resolved' ? catalogOptionsOf(entry.projection.options) : undefined;
    approved.push({
      name: activationEntry.name,
      source: { tier, origin: activationEntry.source.origin },
      definitionFingerprint: activationEntry.fingerprint,
      // Activation treats user and local tiers as per user whatever the entry says (fail closed); so do we.
      perUser: activationEntry.perUser || tier === 'user' || tier === 'local',
      ...(options === undefined ? {} : { options }),
    });
  }
  return approved;
}

/** The options the catalog applies (decisions 0096, 0101): the ones a definition declared, nothing defaulted. */
function catalogOptionsOf(options: ServerOptions): CatalogOptions {
  const { allowTools, toolAxes, toolFaces, contentOrigin } = options;
  return {
    ...(allowTools === undefined ? {} : { allowTools }),
    ...(toolAxes === undefined ? {} : { toolAxes }),
    ...(toolFaces === undefined ? {} : { toolFaces }),
    ...(contentOrigin === undefined ? {} : { contentOrigin }),
  };
}

/** The principal keys whose snapshots may describe servers for this principal. */
export function principalKeysFor(principalUserId: string | null): string[] {
  return principalUserId === null ? [WORKSPACE_PRINCIPAL_KEY] : [principalUserId, WORKSPACE_PRINCIPAL_KEY];
}

/**
 * The snapshot of each approved server: of its exact fingerprint only (a snapshot of another definition never
 * describes this one), the principal's own discovery first (their own sign-in, as the gateway uses their own
 * credential first), the workspace's otherwise, unless the server is per user. Null: pending discovery. The same
 * choice picks which reported discovery failure a pending server shows.
 */
export function chooseSnapshots<
  Row extends Pick<CatalogSnapshotVersion, 'serverName' | 'definitionFingerprint' | 'principalKey'>,
>(
  servers: readonly ApprovedServer[],
  candidates: readonly Row[],
  principalUserId: string | null,
): Map<string, Row | null> {
  const chosen = new Map<string, Row | null>();
  for (const server of servers) {
    const of = (key: string) =>
      candidates.find(
        (row) =>
          row.serverName === server.name &&
          row.definitionFingerprint === server.definitionFingerprint &&
          row.principalKey === key,
      );
    const own = principalUserId === null ? undefined : of(principalUserId);
    const shared = server.perUser ? undefined : of(WORKSPACE_PRINCIPAL_KEY);
    chosen.set(server.name, own ?? shared ?? null);
  }
  return chosen;
}

/** Bumped whenever the build changes what it makes of the same inputs, so no old tag matches a new body. */
const BUILD_VERSION = 'catalog-v1.3';

/**
 * The entity tag of a catalog, from the version of everything its body is a function of
 * (readCatalogInputVersions: the workspace, the view's sources, variables and overlays, the approvals with their
 * expiry at the read's `now`, the snapshots, the discovery failures, the membership), the principal, the tenant's
 * fingerprint key (by id: fingerprints are keyed) and the build. Equal tags mean equal bodies, so a hit needs
 * neither activation nor any document; a change to something the body does not show (another server's variable)
 * only costs a refetch.
 */
export function catalogTagOf(args: {
  readonly tenantId: string;
  readonly workspaceId: string;
  readonly principalUserId: string | null;
  readonly fingerprintKeyId: string;
  readonly versions: CatalogInputVersions;
}): string {
  const { versions } = args;
  const hash = createHash('sha256')
    .update(
      JSON.stringify([
        BUILD_VERSION,
        args.tenantId.toLowerCase(),
        args.workspaceId.toLowerCase(),
        args.principalUserId,
        args.fingerprintKeyId,
        versions.workspace,
        versions.member,
        versions.sources,
        versions.variables,
        versions.overlays,
        versions.approvals,
        versions.snapshots,
        versions.failures,
      ]),
    )
    .digest('base64url');
  return `"${hash}"`;
}

/** The same inputs, read twice: nothing the catalog depends on was written in between. */
export function sameInputs(a: CatalogInputVersions, b: CatalogInputVersions): boolean {
  return (
    a.workspace === b.workspace &&
    a.member === b.member &&
    a.sources === b.sources &&
    a.variables === b.variables &&
    a.overlays === b.overlays &&
    a.approvals === b.approvals &&
    a.snapshots === b.snapshots &&
    a.failures === b.failures
  );
}
