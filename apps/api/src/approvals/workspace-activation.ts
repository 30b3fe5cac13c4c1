import {
  approvalIdentityOf,
  decideActivation,
  type ActivationDecision,
  type ActivationEntry,
  type ActivationWorkspace,
  type ApprovalIdentity,
} from '@gatehouse/activation';
import type { ApprovalRequest, TenantTx, Workspace } from '@gatehouse/db';
import type { EffectiveEntry, ResolveResult } from '@gatehouse/definitions';
import type { DefinitionCipher } from '../definitions/definition-cipher';
import { resolveWorkspaceView } from '../definitions/effective-definitions.loader';
import {
  activationEntryOf,
  activationViewOf,
  activationWorkspaceOf,
  approvalRecordOf,
} from './activation-inputs';

/** One effective entry with its activation decision in one view. */
export interface EvaluatedEntry {
  readonly entry: EffectiveEntry;
  readonly activationEntry: ActivationEntry;
  readonly decision: ActivationDecision;
  /** The exact identity an approval would bind to; null when the entry is not approvable in this view. */
  readonly identity: ApprovalIdentity | null;
  /** The open request for exactly this identity, if any. */
  readonly openRequest: ApprovalRequest | null;
}

export interface EvaluatedView {
  readonly workspace: ActivationWorkspace;
  readonly userId: string | null;
  readonly result: ResolveResult;
  readonly entries: readonly EvaluatedEntry[];
}

/**
 * Resolves one view of a workspace (the workspace alone, or one user) and decides activation for every entry
 * against the workspace's stored decisions. Reads only: opening requests is the opener's job, after an event.
 */
export async function evaluateWorkspaceView(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: { tenantId: string; workspace: Workspace; userId: string | null; now?: Date },
): Promise<EvaluatedView> {
  const { tenantId, workspace: row, userId } = args;
  const now = args.now ?? new Date();
  const result = await resolveWorkspaceView(tx, cipher, { tenantId, workspaceId: row.id, userId });
  const principalFilter = userId === null ? { principalUserId: null } : { principalUserId: { in: [userId] } };
  // One transaction is one connection: these run one after the other anyway.
  const approvalRows = await tx.approval.findMany({
    where: { workspaceId: row.id, OR: [{ principalUserId: null }, principalFilter] },
  });
  const openRows = await tx.approvalRequest.findMany({
    where: { workspaceId: row.id, status: 'open', OR: [{ principalUserId: null }, principalFilter] },
  });
  const approvals = approvalRows.map(approvalRecordOf);
  const openByKey = new Map(openRows.map((request) => [request.identityKey, request]));
  const workspace = activationWorkspaceOf(row);
  const view = activationViewOf(userId);
  const entries = result.entries.map((entry): EvaluatedEntry => {
    const activationEntry = activationEntryOf(entry);
    const decision = decideActivation(activationEntry, workspace, view, approvals, now);
    const identityResult = approvalIdentityOf(activationEntry, workspace, view);
    const identity = identityResult.ok ? identityResult.identity : null;
    return {
      entry,
      activationEntry,
      decision,
      identity,
      openRequest: identity === null ? null : (openByKey.get(identity.key) ?? null),
    };
  });
  return { workspace, userId, result, entries };
}
