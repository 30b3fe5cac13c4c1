import { oauthCredentialPage, serverStatusView, workspaceCatalogV1 } from '@gatehouse/contracts';
import type { Page } from '../views/api-views';
import type { OAuthCredentialView, ServerStatusView, WorkspaceCatalogView } from '../views/catalog-views';
import { callApi, type ApiResult } from './api-client';

// The reads of the catalog and Connections views, one function per API command, each answer parsed with its
// schema from @gatehouse/contracts.

/**
 * `catalog.get` for the signed-in person: a session always reads its own principal's catalog (decision 0074),
 * so this is the workspace "as you get it". Never a long-poll: a page renders what holds now.
 */
export function getWorkspaceCatalog(workspaceId: string): Promise<ApiResult<WorkspaceCatalogView>> {
  return callApi({
    method: 'GET',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/catalog`,
    answer: workspaceCatalogV1,
  });
}

/**
 * `oauth.credentials.list`: the person's own sign-ins; with a workspace, that workspace's service credentials
 * after them (subject `workspace`), which every member may read (decision 0102): words, issuer and expiry only.
 */
export function listOAuthCredentials(
  args: { workspaceId?: string; cursor?: string | undefined; limit?: number } = {},
): Promise<ApiResult<Page<OAuthCredentialView>>> {
  return callApi({
    method: 'GET',
    path: '/v1/oauth/credentials',
    query: { workspaceId: args.workspaceId, cursor: args.cursor, limit: args.limit ?? 200 },
    answer: oauthCredentialPage,
  });
}

/**
 * `oauth.serviceCredentials.list` (owners and admins only): the workspace's service credentials, the same view a
 * person gets of their own, read by the Connections page for its service credentials panel (with the sign-out).
 * `oauth.credentials.list` for a workspace carries them too, for members.
 */
export function listServiceCredentials(
  workspaceId: string,
  args: { cursor?: string | undefined; limit?: number } = {},
): Promise<ApiResult<Page<OAuthCredentialView>>> {
  return callApi({
    method: 'GET',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/oauth/service-credentials`,
    query: { cursor: args.cursor, limit: args.limit ?? 200 },
    answer: oauthCredentialPage,
  });
}

/**
 * `servers.status`: the connection state workers last reported for the workspace and for the person, and the
 * first page of live lease holders (owners and admins: every principal's). Never a transport.
 */
export function getServerStatus(
  workspaceId: string,
  serverName: string,
  args: { cursor?: string | undefined; limit?: number } = {},
): Promise<ApiResult<ServerStatusView>> {
  return callApi({
    method: 'GET',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/servers/${encodeURIComponent(serverName)}/status`,
    query: { cursor: args.cursor, limit: args.limit ?? 50 },
    answer: serverStatusView,
  });
}
