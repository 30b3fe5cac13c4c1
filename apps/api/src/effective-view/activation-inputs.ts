import type {
  ActivationEntry,
  ActivationView,
  ActivationWorkspace,
  ApprovalIdentity,
  ApprovalRecord,
} from '@gatehouse/activation';
import type { Approval, Workspace } from '@gatehouse/db';
import type { ActiveEntry, EffectiveEntry } from '@gatehouse/definitions';

/**
 * Maps what the API holds (resolved entries of @gatehouse/definitions, workspace and approval rows) onto the
 * structural shapes @gatehouse/activation decides on. The one place the two vocabularies meet.
 */

function requiresTrust(entry: ActiveEntry): boolean {
  switch (entry.status) {
    case 'resolved':
      return entry.projection.requiresTrustedWorkspace;
    case 'unresolved':
      return entry.reason === 'unset_variable' || entry.reason === 'invalid_value'
        ? entry.projection.requiresTrustedWorkspace
        : false;
    case 'blocked':
    case 'rejected':
      return false;
    default: {
      const unreachable: never = entry;
      throw new Error(`unknown entry ${String(unreachable)}`);
    }
  }
}

function perUserOf(entry: ActiveEntry): boolean {
  if (entry.status === 'resolved') return entry.perUser;
  if (entry.status === 'unresolved' && entry.reason === 'unset_variable') return entry.perUser;
  // Not resolvable here: activation treats user and local tiers as per user whatever this says (fail closed).
  return false;
}

/**
 * Whether a user's entry is exactly what the workspace alone resolves the same name to: the same source, the same
 * fingerprint and security identity. Then the user's own variables change nothing a reviewer sees (a personal
 * secret where the workspace has one: a credential, which the fingerprint names by source, never by value), so
 * the workspace's review covers it, as a rotated credential keeps its approval (decision 0087). A user or local
 * source never qualifies: the workspace alone never reads it.
 */
export function resolvesLikeWorkspace(
  entry: EffectiveEntry,
  workspaceTwin: EffectiveEntry | undefined,
): boolean {
  const twin = workspaceTwin?.status === 'disabled' ? workspaceTwin.entry : workspaceTwin;
  if (entry.status !== 'resolved' || twin?.status !== 'resolved') return false;
  if (entry.source.tier === 'user' || entry.source.tier === 'local') return false;
  return (
    entry.source.origin === twin.source.origin &&
    entry.fingerprint === twin.fingerprint &&
    entry.identity.key === twin.identity.key
  );
}

/**
 * @param workspaceTwin in a user's view, the entry of the same name as the workspace alone resolves it: a
 *   per-user entry that {@link resolvesLikeWorkspace} is decided as the workspace's.
 */
export function activationEntryOf(entry: EffectiveEntry, workspaceTwin?: EffectiveEntry): ActivationEntry {
  const active = entry.status === 'disabled' ? entry.entry : entry;
  const base = {
    name: entry.name,
    source: { tier: active.source.tier, origin: active.source.origin },
    perUser: perUserOf(active) && !resolvesLikeWorkspace(active, workspaceTwin),
    requiresTrustedWorkspace: requiresTrust(active),
  };
  if (entry.status === 'resolved') {
    return { ...base, usable: true, fingerprint: entry.fingerprint, securityIdentity: entry.identity.key };
  }
  return { ...base, usable: false, status: entry.status };
}

/**
 * A workspace without a repository identity is bound to itself: approvals of its project, local and plugin
 * sources then hold for this workspace's id, never for an empty string another workspace could share.
 */
export function activationWorkspaceOf(
  row: Pick<Workspace, 'id' | 'repositoryIdentity' | 'generation' | 'trusted'>,
): ActivationWorkspace {
  return {
    id: row.id,
    repositoryIdentity: row.repositoryIdentity ?? `workspace:${row.id}`,
    generation: row.generation,
    trusted: row.trusted,
  };
}

export function activationViewOf(userId: string | null): ActivationView {
  return userId === null ? { kind: 'workspace' } : { kind: 'principal', userId };
}

export function approvalRecordOf(row: Approval): ApprovalRecord {
  const { key: _key, ...identity } = identityOfRow(row);
  return {
    ...identity,
    id: row.id,
    decision: row.decision,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  };
}

type IdentityRow = Pick<
  Approval,
  | 'identityKey'
  | 'serverName'
  | 'sourceTier'
  | 'sourceOrigin'
  | 'definitionFingerprint'
  | 'securityIdentity'
  | 'principalUserId'
  | 'repositoryIdentity'
  | 'workspaceGeneration'
>;

/** The identity a request or approval row was opened or decided for. */
export function identityOfRow(row: IdentityRow): ApprovalIdentity {
  return {
    key: row.identityKey,
    serverName: row.serverName,
    source: { tier: row.sourceTier, origin: row.sourceOrigin },
    definitionFingerprint: row.definitionFingerprint,
    securityIdentity: row.securityIdentity,
    principalUserId: row.principalUserId,
    repositoryIdentity: row.repositoryIdentity,
    workspaceGeneration: row.workspaceGeneration,
  };
}
