import type { DefinitionTier, VariableScope } from '../views/definition-views';

// Who may write what among server definitions, mirroring the API's trust model (docs/architecture/README.md,
// trust model; apps/api's definition-access.ts) so the pages offer only what will be accepted: managed and
// plugin sources and tenant variables by owners and admins; a workspace's project source, variables and
// overlays by admins and its maintainers; user and local sources, user variables and the person's own
// overlays by the person. The API enforces the same rules again on every call.

export interface DefinitionWriter {
  readonly scopes: readonly string[];
  readonly role: string | null;
  /** Whether the person maintains the workspace in question. */
  readonly maintainer: boolean;
}

export interface DefinitionPermissions {
  readonly read: boolean;
  /** The tiers whose source of this workspace the person may write, in precedence order. */
  readonly tiers: readonly DefinitionTier[];
  readonly variableScopes: readonly VariableScope[];
  /** Disable a server for everyone in the workspace (else only for themselves). */
  readonly workspaceOverlays: boolean;
}

const TIER_ORDER: readonly DefinitionTier[] = ['managed', 'local', 'project', 'user', 'plugin'];

export function definitionPermissions(writer: DefinitionWriter): DefinitionPermissions {
  const read = writer.scopes.includes('definitions:read');
  const write = writer.scopes.includes('definitions:write');
  const admin = writer.role === 'owner' || writer.role === 'admin';
  const workspace = admin || writer.maintainer;
  if (!write) return { read, tiers: [], variableScopes: [], workspaceOverlays: false };
  const tiers = TIER_ORDER.filter((tier) => {
    if (tier === 'managed' || tier === 'plugin') return admin;
    if (tier === 'project') return workspace;
    return true;
  });
  const variableScopes: VariableScope[] = [
    ...(admin ? (['tenant'] as const) : []),
    ...(workspace ? (['workspace'] as const) : []),
    'user',
  ];
  return { read, tiers, variableScopes, workspaceOverlays: workspace };
}

export function isDefinitionTier(value: string): value is DefinitionTier {
  return (TIER_ORDER as readonly string[]).includes(value);
}

export function isVariableScope(value: string): value is VariableScope {
  return value === 'tenant' || value === 'workspace' || value === 'user';
}
