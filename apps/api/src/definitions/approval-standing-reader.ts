import type { TenantTx } from '@gatehouse/db';
import type { AffectedView } from '../effective-view/affected-views';
import type { DefinitionCipher } from '../effective-view/definition-cipher';
import { loadEffectiveViews } from '../effective-view/effective-views';

/** One server's activation state in one view, for the preview's before/after comparison. */
export interface ApprovalStanding {
  readonly workspaceId: string;
  readonly workspaceName: string;
  readonly serverName: string;
  readonly principalUserId: string | null;
  readonly state: string;
}

function keyOf(view: AffectedView, serverName: string): string {
  return `${view.workspace.id}/${view.userId ?? ''}/${serverName}`;
}

/**
 * The activation state of every entry in the given views, keyed by view and server name: read inside the
 * preview's transaction before and after the write, so the two readings differ exactly by what the write did.
 */
export async function readApprovalStandings(
  tx: TenantTx,
  cipher: DefinitionCipher,
  tenantId: string,
  views: readonly AffectedView[],
): Promise<Map<string, ApprovalStanding>> {
  const standings = new Map<string, ApprovalStanding>();
  if (views.length === 0) return standings;
  const context = await loadEffectiveViews(tx, cipher, {
    tenantId,
    workspaceIds: views.map((view) => view.workspace.id),
    userIds: views.flatMap((view) => (view.userId === null ? [] : [view.userId])),
  });
  const now = new Date();
  for (const view of views) {
    for (const item of context.evaluate(view.workspace, view.userId, now).entries) {
      standings.set(keyOf(view, item.entry.name), {
        workspaceId: view.workspace.id,
        workspaceName: view.workspace.name,
        serverName: item.entry.name,
        principalUserId: item.identity === null ? view.userId : item.identity.principalUserId,
        state: item.decision.state,
      });
    }
  }
  return standings;
}

/** Approved before, not approved after (stale, pending, gone): what the write would take out of force. */
export function approvalsLeftStale(
  before: ReadonlyMap<string, ApprovalStanding>,
  after: ReadonlyMap<string, ApprovalStanding>,
): { standing: ApprovalStanding; becomes: string }[] {
  const stale: { standing: ApprovalStanding; becomes: string }[] = [];
  const seen = new Set<string>();
  for (const [key, standing] of before) {
    if (standing.state !== 'approved') continue;
    const now = after.get(key);
    if (now?.state === 'approved') continue;
    // The workspace view and a user's view may show the same workspace-alone approval: name it once.
    const once = `${standing.workspaceId}/${standing.principalUserId ?? ''}/${standing.serverName}`;
    if (seen.has(once)) continue;
    seen.add(once);
    stale.push({ standing, becomes: now?.state ?? 'removed' });
  }
  return stale;
}
