import {
  approvalIdentityOf,
  decideActivation,
  type ActivationDecision,
  type ActivationView,
  type ActivationWorkspace,
  type ApprovalIdentity,
  type ApprovalRecord,
} from '@gatehouse/activation';
import { resolveDefinitions, type EffectiveEntry, type ResolveResult } from '@gatehouse/definitions';
import { activationEntryOf } from './activation-inputs';
import type { DefinitionSnapshot } from './definition-snapshot';

/**
 * The two steps every answer to "what may this principal run in this workspace" is made of, each written once:
 * resolving a view's sources, and deciding one entry's activation. Everything else in this folder only chooses
 * which views, which entries and which stored decisions go in.
 */

/** One view of a workspace (the workspace alone: userId null) resolved from what the snapshot read. */
export function resolveView(
  snapshot: DefinitionSnapshot,
  workspaceId: string,
  userId: string | null,
): ResolveResult {
  return resolveDefinitions(snapshot.inputFor(workspaceId, userId));
}

/** One entry decided: its activation and the exact identity an approval of it would bind to. */
export interface DecidedEntry {
  readonly activationEntry: ReturnType<typeof activationEntryOf>;
  readonly decision: ActivationDecision;
  /** Null when the entry is not approvable in this view. */
  readonly identity: ApprovalIdentity | null;
}

/**
 * @param workspaceTwin in a user's view, the entry of the same name as the workspace alone resolves it (a
 *   per-user entry that resolves like it is decided as the workspace's: activation-inputs resolvesLikeWorkspace).
 */
export function decideEntry(
  entry: EffectiveEntry,
  workspaceTwin: EffectiveEntry | undefined,
  workspace: ActivationWorkspace,
  view: ActivationView,
  approvals: readonly ApprovalRecord[],
  now: Date,
): DecidedEntry {
  const activationEntry = activationEntryOf(entry, workspaceTwin);
  const decision = decideActivation(activationEntry, workspace, view, approvals, now);
  const identity = approvalIdentityOf(activationEntry, workspace, view);
  return { activationEntry, decision, identity: identity.ok ? identity.identity : null };
}
