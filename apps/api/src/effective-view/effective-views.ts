import type {
  ActivationDecision,
  ActivationEntry,
  ActivationWorkspace,
  ApprovalIdentity,
} from '@gatehouse/activation';
import type { Approval, ApprovalRequest, TenantTx, Workspace } from '@gatehouse/db';
import type { EffectiveEntry, ResolveResult } from '@gatehouse/definitions';
import { activationViewOf, activationWorkspaceOf, approvalRecordOf } from './activation-inputs';
import type { DefinitionCipher } from './definition-cipher';
import { loadDefinitionSnapshot, type DefinitionSnapshot } from './definition-snapshot';
import { decideEntry, resolveView } from './resolve-and-decide';
import { workspaceTwinsOf } from './workspace-twins';

/** One effective entry with its activation decision in one view. */
export interface EvaluatedEntry {
  readonly entry: EffectiveEntry;
  readonly activationEntry: ActivationEntry;
  readonly decision: ActivationDecision;
  /** The exact identity an approval would bind to; null when the entry is not approvable in this view. */
  readonly identity: ApprovalIdentity | null;
  /** The open request for exactly this identity, if any. */
  readonly openRequest: ApprovalRequest | null;
  /**
   * For a disabled entry that resolves beneath its overlay: the decision without the overlay (the approval in
   * force, say), to show beside "disabled". Never a reason to lease: the entry itself stays unusable.
   */
  readonly beneathOverlay: ActivationDecision | null;
  /**
   * The identity beneath the overlay of a disabled entry that resolves: still the server's identity (disabling it
   * pauses it, and enabling it again gives it back unchanged), so its open request stays.
   */
  readonly beneathIdentityKey: string | null;
}

export interface EvaluatedView {
  readonly workspace: ActivationWorkspace;
  readonly userId: string | null;
  readonly result: ResolveResult;
  readonly entries: readonly EvaluatedEntry[];
}

/**
 * The effective views of some workspaces of a tenant (each workspace alone, and the given principals in it),
 * decided against the stored state read once: what they resolve from (a definition snapshot), the workspaces'
 * decisions and their open requests. Reads only: opening requests is the opener's job, after an event.
 */
export class EffectiveViews {
  constructor(
    readonly snapshot: DefinitionSnapshot,
    private readonly approvals: readonly Approval[],
    private readonly openRequests: readonly ApprovalRequest[],
  ) {}

  /** The loaded decision of this id (any of the context's workspaces). */
  approvalById(id: string): Approval | undefined {
    return this.approvals.find((approval) => approval.id === id);
  }

  /**
   * When the last approval of this server for this principal binding that still counts as a review was given: an
   * approval not revoked (an expired one was still reviewed by someone). Null: never.
   */
  lastHoldingApprovalAt(
    workspaceId: string,
    serverName: string,
    principalUserId: string | null,
  ): Date | null {
    let latest: Date | null = null;
    for (const approval of this.approvals) {
      if (approval.workspaceId !== workspaceId || approval.serverName !== serverName) continue;
      if (approval.principalUserId !== principalUserId) continue;
      if (approval.decision !== 'approved' || approval.revokedAt !== null) continue;
      if (latest === null || approval.decidedAt.getTime() > latest.getTime()) latest = approval.decidedAt;
    }
    return latest;
  }

  /** Open requests about a server for one principal binding (null: the workspace alone) in a workspace. */
  openRequestsAbout(
    workspaceId: string,
    serverName: string,
    principalUserId: string | null,
  ): ApprovalRequest[] {
    return this.openRequests.filter(
      (request) =>
        request.workspaceId === workspaceId &&
        request.serverName === serverName &&
        request.principalUserId === principalUserId,
    );
  }

  /** Open requests bound to exactly this principal binding (null: the workspace alone) in a workspace. */
  openRequestsBoundTo(workspaceId: string, principalUserId: string | null): ApprovalRequest[] {
    return this.openRequests.filter(
      (request) => request.workspaceId === workspaceId && request.principalUserId === principalUserId,
    );
  }

  /** One view of a workspace resolved, without deciding activation (what it lists and how). */
  resolve(workspaceId: string, userId: string | null): ResolveResult {
    return resolveView(this.snapshot, workspaceId, userId);
  }

  /** Resolves one view of a workspace and decides activation for every entry. */
  evaluate(row: Workspace, userId: string | null, now: Date = new Date()): EvaluatedView {
    const result = this.resolve(row.id, userId);
    const bearsOnView = (principalUserId: string | null) =>
      principalUserId === null || principalUserId === userId;
    const approvals = this.approvals
      .filter((approval) => approval.workspaceId === row.id && bearsOnView(approval.principalUserId))
      .map(approvalRecordOf);
    const openByKey = new Map(
      this.openRequests
        .filter((request) => request.workspaceId === row.id && bearsOnView(request.principalUserId))
        .map((request) => [request.identityKey, request]),
    );
    const workspace = activationWorkspaceOf(row);
    const view = activationViewOf(userId);
    const twins = workspaceTwinsOf(this.snapshot, row.id, userId, result);
    const entries = result.entries.map((entry): EvaluatedEntry => {
      const twin = twins.get(entry.name);
      const { activationEntry, decision, identity } = decideEntry(
        entry,
        twin,
        workspace,
        view,
        approvals,
        now,
      );
      const beneath =
        entry.status === 'disabled' && entry.entry.status === 'resolved'
          ? decideEntry(entry.entry, twin, workspace, view, approvals, now)
          : null;
      return {
        entry,
        activationEntry,
        decision,
        identity,
        openRequest: identity === null ? null : (openByKey.get(identity.key) ?? null),
        beneathOverlay: beneath?.decision ?? null,
        beneathIdentityKey: beneath?.identity?.key ?? null,
      };
    });
    return { workspace, userId, result, entries };
  }
}

/** Loads the effective views of the given workspaces, each for the workspace alone and for the given users. */
export async function loadEffectiveViews(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: { tenantId: string; workspaceIds: readonly string[]; userIds: readonly string[] },
): Promise<EffectiveViews> {
  const snapshot = await loadDefinitionSnapshot(tx, cipher, args);
  const workspaceIds = [...new Set(args.workspaceIds)];
  const principals = [{ principalUserId: null }, { principalUserId: { in: [...new Set(args.userIds)] } }];
  // One transaction is one connection: these run one after the other anyway.
  const approvals = await tx.approval.findMany({
    where: { workspaceId: { in: workspaceIds }, OR: principals },
  });
  const openRequests = await tx.approvalRequest.findMany({
    where: { workspaceId: { in: workspaceIds }, status: 'open', OR: principals },
  });
  return new EffectiveViews(snapshot, approvals, openRequests);
}

/** One view of one workspace (the workspace alone, or one user), decided. */
export async function evaluateWorkspaceView(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: { tenantId: string; workspace: Workspace; userId: string | null; now?: Date },
): Promise<EvaluatedView> {
  const views = await loadEffectiveViews(tx, cipher, {
    tenantId: args.tenantId,
    workspaceIds: [args.workspace.id],
    userIds: args.userId === null ? [] : [args.userId],
  });
  return views.evaluate(args.workspace, args.userId, args.now);
}
