import type { ActivationReason } from './activation-decision';
import type { ActivationEntry, ActivationWorkspace } from './activation-types';
import { needsTrustedWorkspace } from './source-tier.policy';

/**
 * Why an untrusted workspace refuses this entry (empty: trust does not stand in its way). Checked before any
 * approval: trust is the workspace's state, not the definition's, so no approval of the definition can stand in
 * for it, and `requiresTrustedWorkspace` is deny-by-default.
 */
export function untrustedBecause(entry: ActivationEntry, workspace: ActivationWorkspace): ActivationReason[] {
  if (workspace.trusted) return [];
  const reasons: ActivationReason[] = [];
  if (needsTrustedWorkspace(entry.source.tier)) reasons.push('untrusted_workspace_source');
  if (entry.requiresTrustedWorkspace) reasons.push('requires_trusted_workspace');
  return reasons;
}
