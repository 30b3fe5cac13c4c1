import { assertNever } from './assert-never';
import type { SourceTier } from './activation-types';

/**
 * Whether this tier's content arrives with (or beside) the workspace: local, project and plugin sources. Managed
 * sources are the tenant's own policy and user sources are the user's own; neither lives in a repository.
 */
function arrivesWithWorkspace(tier: SourceTier): boolean {
  switch (tier) {
    case 'managed':
    case 'user':
      return false;
    case 'local':
    case 'project':
    case 'plugin':
      return true;
    default:
      return assertNever(tier);
  }
}

/**
 * Whether approvals of this tier's entries also bind to the workspace's repository identity and generation: only
 * content that arrives with the workspace changes when the workspace's code does, so only its approval holds
 * just for the repository and generation it was given for.
 */
export function bindsToWorkspace(tier: SourceTier): boolean {
  return arrivesWithWorkspace(tier);
}

/**
 * Whether entries of this tier are refused in an untrusted workspace whatever they declare: content the
 * workspace brought along, which an untrusted workspace does not get to run.
 */
export function needsTrustedWorkspace(tier: SourceTier): boolean {
  return arrivesWithWorkspace(tier);
}

/**
 * Whether approvals of this entry are per user. User and local sources are a user's own, so their entries are
 * always per user even if the caller's flag says otherwise (fail closed); other entries are per user when they
 * depend on a user's tiers or variables.
 */
export function isPrincipalBound(entry: {
  readonly source: { readonly tier: SourceTier };
  readonly perUser: boolean;
}): boolean {
  switch (entry.source.tier) {
    case 'user':
    case 'local':
      return true;
    case 'managed':
    case 'project':
    case 'plugin':
      return entry.perUser;
    default:
      return assertNever(entry.source.tier);
  }
}
