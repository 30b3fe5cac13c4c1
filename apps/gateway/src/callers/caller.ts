/**
 * Who is calling the gateway, as the API's introspection vouched for them (decision 0079): a user token (the
 * gateway serves that person) or an agent token (the workspace alone). Never the token itself.
 */
export interface GatewayCaller {
  readonly tokenId: string;
  readonly tenantId: string;
  readonly kind: 'user' | 'agent';
  /** The principal upstreams and the catalog are for; null: the workspace alone. */
  readonly userId: string | null;
  readonly workspaceId: string;
  /** When the token itself expires; null: never. Checked on every request, cached or not. */
  readonly expiresAt: Date | null;
}

/** What authenticating a request to `/mcp/w/:workspaceId` comes to. */
export type CallerCheck =
  | { readonly ok: true; readonly caller: GatewayCaller }
  /** No bearer token, one not of our shape, or one the API says is not active: 401. */
  | { readonly ok: false; readonly reason: 'unauthenticated' }
  /** A live token for which this workspace does not exist (another tenant's, outside its binding): 404. */
  | { readonly ok: false; readonly reason: 'workspace_not_found' };
