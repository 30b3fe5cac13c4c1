import { createHash } from 'node:crypto';
import type { ApprovedCatalogServer } from '@gatehouse/catalog';
import type { CatalogSnapshotVersion } from '@gatehouse/db';
import type { EvaluatedView } from '../approvals/workspace-activation';

/** The workspace's own discoveries are stored under this principal key (catalog_snapshots.principal_key). */
export const WORKSPACE_PRINCIPAL_KEY = 'workspace';

/** A server approved for the principal now, and whether only the principal's own discovery may describe it. */
export interface ApprovedServer extends ApprovedCatalogServer {
  readonly perUser: boolean;
}

/** Every entry of the view that is approved now (activation re-decided by the caller: the effective view's). */
export function approvedServersOf(view: EvaluatedView): ApprovedServer[] {
  const approved: ApprovedServer[] = [];
  for (const { activationEntry, decision } of view.entries) {
    if (decision.state !== 'approved' || !activationEntry.usable) continue;
    const tier = activationEntry.source.tier;
    approved.push({
      name: activationEntry.name,
      source: { tier, origin: activationEntry.source.origin },
      definitionFingerprint: activationEntry.fingerprint,
      // Activation treats user and local tiers as per user whatever the entry says (fail closed); so do we.
      perUser: activationEntry.perUser || tier === 'user' || tier === 'local',
    });
  }
  return approved;
}

/** The principal keys whose snapshots may describe servers for this principal. */
export function principalKeysFor(principalUserId: string | null): string[] {
  return principalUserId === null ? [WORKSPACE_PRINCIPAL_KEY] : [principalUserId, WORKSPACE_PRINCIPAL_KEY];
}

/**
 * The snapshot of each approved server: of its exact fingerprint only (a snapshot of another definition never
 * describes this one), the principal's own discovery first (their own sign-in, as the gateway uses their own
 * credential first), the workspace's otherwise, unless the server is per user. Null: pending discovery.
 */
export function chooseSnapshots(
  servers: readonly ApprovedServer[],
  candidates: readonly CatalogSnapshotVersion[],
  principalUserId: string | null,
): Map<string, CatalogSnapshotVersion | null> {
  const chosen = new Map<string, CatalogSnapshotVersion | null>();
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
const BUILD_VERSION = 'catalog-v1.1';

/**
 * The entity tag of a catalog, from everything its body is a function of: the workspace and principal, every
 * approved server (name, source, fingerprint) and the exact version of the snapshot chosen for it (row id and
 * Postgres row version), and the build. Equal tags mean equal bodies, so a hit needs no document at all.
 */
export function catalogTagOf(args: {
  readonly workspaceId: string;
  readonly principalUserId: string | null;
  readonly servers: readonly ApprovedServer[];
  readonly versions: ReadonlyMap<string, Pick<CatalogSnapshotVersion, 'id' | 'version'> | null>;
}): string {
  const parts = [...args.servers]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((server) => {
      const chosen = args.versions.get(server.name) ?? null;
      return [
        server.name,
        server.source.tier,
        server.source.origin,
        server.definitionFingerprint,
        chosen === null ? null : [chosen.id, chosen.version],
      ];
    });
  const hash = createHash('sha256')
    .update(JSON.stringify([BUILD_VERSION, args.workspaceId.toLowerCase(), args.principalUserId, parts]))
    .digest('base64url');
  return `"${hash}"`;
}
