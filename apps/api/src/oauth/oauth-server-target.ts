// The server a sign-in is for, as the caller's own view resolves it now: its security identity, the URL it
// declares and its OAuth settings. Reads only (one transaction); a server the view does not list is 404.
import type { Database } from '@gatehouse/db';
import { materializedDefinitionOf, type OAuthSettings } from '@gatehouse/definitions';
import { notFound } from '../shared/command-problems';
import type { EffectiveView } from '../effective-view/effective-view.service';
import type { TenantHostPolicy } from '../host-policy/host-policy';
import { hostPolicyOfRow } from '../host-policy/host-policy-view';
import { serverNotLeasable } from '../effective-view/view-problems';
import { oauthNotDeclared } from './oauth-problems';

export interface OAuthServerTarget {
  readonly workspaceId: string;
  readonly serverName: string;
  /** The security identity key (sid:v1:...): part of the credential's key. */
  readonly securityIdentity: string;
  readonly serverUrl: string;
  readonly oauth: OAuthSettings;
  readonly tenantPolicy: TenantHostPolicy;
}

export async function resolveOAuthServerTarget(
  db: Database,
  views: EffectiveView,
  args: {
    readonly tenantId: string;
    readonly workspaceId: string;
    readonly userId: string;
    readonly serverName: string;
  },
): Promise<OAuthServerTarget> {
  return db.withTenant(args.tenantId, async (tx) => {
    const workspace = await tx.workspace.findUnique({ where: { id: args.workspaceId } });
    if (workspace === null) throw notFound('workspace');
    const resolved = await views.resolved(tx, {
      tenantId: args.tenantId,
      workspaceId: workspace.id,
      userId: args.userId,
    });
    const entry = resolved.entries.find((candidate) => candidate.name === args.serverName);
    if (entry === undefined) throw notFound('server');
    if (entry.status !== 'resolved') throw serverNotLeasable(entry.status);
    const materialized = materializedDefinitionOf(entry);
    if (materialized === undefined)
      throw new Error(`resolved entry ${entry.name} carries no materialized definition`);
    const { transport } = materialized;
    if (transport.kind !== 'http' || transport.oauth === null) throw oauthNotDeclared();
    const hostPolicy = await tx.hostPolicy.findUnique({ where: { tenantId: args.tenantId } });
    return {
      workspaceId: workspace.id,
      serverName: entry.name,
      securityIdentity: entry.identity.key,
      serverUrl: transport.url.value,
      oauth: transport.oauth,
      tenantPolicy: hostPolicyOfRow(hostPolicy),
    };
  });
}
