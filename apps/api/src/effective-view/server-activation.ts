import type { ActivationDecision, ApprovalIdentity } from '@gatehouse/activation';
import type { Approval, TenantTx, Workspace } from '@gatehouse/db';
import type { EffectiveEntry } from '@gatehouse/definitions';
import { activationViewOf, activationWorkspaceOf, approvalRecordOf } from './activation-inputs';
import type { DefinitionCipher } from './definition-cipher';
import { loadDefinitionSnapshot, type DefinitionSnapshot } from './definition-snapshot';
import { decideEntry, resolveView } from './resolve-and-decide';
import { workspaceTwinsOf } from './workspace-twins';

/** Activation decided for the one server of a view a lease, a renewal or a catalog refresh is about. */
export interface ServerActivation {
  /** The server as the view resolves it; null when the view lists no server of that name. */
  readonly entry: EffectiveEntry | null;
  readonly decision: ActivationDecision | null;
  /** The exact identity an approval binds to; null when the entry is not approvable in this view. */
  readonly identity: ApprovalIdentity | null;
}

/**
 * Decides activation for ONE server of one view (the workspace alone, or one user), now. The view's sources are
 * resolved (precedence is per name, but a name's winner can only be known from every source of the view), and
 * then only this server's entry is decided, against this server's decisions alone: no other entry's approvals
 * are read and no other entry is decided. Reads only.
 */
export async function decideServerActivation(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: {
    readonly tenantId: string;
    readonly workspace: Workspace;
    readonly userId: string | null;
    readonly serverName: string;
    readonly now: Date;
  },
): Promise<ServerActivation> {
  const { workspace, userId } = args;
  const snapshot = await loadDefinitionSnapshot(tx, cipher, {
    tenantId: args.tenantId,
    workspaceIds: [workspace.id],
    userIds: userId === null ? [] : [userId],
  });
  const approvals = await tx.approval.findMany({
    where: {
      workspaceId: workspace.id,
      serverName: args.serverName,
      OR: [{ principalUserId: null }, ...(userId === null ? [] : [{ principalUserId: userId }])],
    },
  });
  return serverActivationOf(snapshot, approvals, args);
}

/**
 * The same decision from what was already read: the view's snapshot and this server's approvals in the view
 * (the workspace's and the principal's own). Pure: lease issuance reads both in one round trip.
 */
export function serverActivationOf(
  snapshot: DefinitionSnapshot,
  approvals: readonly Approval[],
  args: {
    readonly workspace: Workspace;
    readonly userId: string | null;
    readonly serverName: string;
    readonly now: Date;
  },
): ServerActivation {
  const { workspace, userId } = args;
  const resolved = resolveView(snapshot, workspace.id, userId);
  const entry = resolved.entries.find((candidate) => candidate.name === args.serverName) ?? null;
  if (entry === null) return { entry: null, decision: null, identity: null };
  // Decided as the Servers page decides it: a per-user entry that resolves like the workspace's is the workspace's.
  const twins = workspaceTwinsOf(snapshot, workspace.id, userId, resolved);
  const { decision, identity } = decideEntry(
    entry,
    twins.get(entry.name),
    activationWorkspaceOf(workspace),
    activationViewOf(userId),
    approvals.map(approvalRecordOf),
    args.now,
  );
  return { entry, decision, identity };
}
