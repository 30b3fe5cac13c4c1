import type { WorkspaceView } from '../views/api-views';
import type { ApiProblem } from './api-problem';
import { getWorkspace, listMaintainers } from './api-queries';
import type { Capabilities } from './capabilities';
import { pageAccess, redirectIfSessionEnded, type PageAccess } from './current-session';
import { definitionPermissions, type DefinitionPermissions } from './definition-permissions';

// What every page of one workspace's Servers section starts from: the access gate, the workspace, and what the
// person may write there (a maintainer writes more than a member, so the maintainers are read too).

export type ServersPageContext =
  | { readonly kind: 'access'; readonly access: Exclude<PageAccess, { ok: true }> }
  | { readonly kind: 'missing' }
  | { readonly kind: 'problem'; readonly problem: ApiProblem }
  | {
      readonly kind: 'ready';
      readonly workspace: WorkspaceView;
      readonly userId: string;
      readonly permissions: DefinitionPermissions;
      readonly can: Capabilities;
    };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function serversPageContext(workspaceId: string): Promise<ServersPageContext> {
  const access = await pageAccess('readWorkspaces');
  if (!access.ok) return { kind: 'access', access };
  if (!UUID.test(workspaceId)) return { kind: 'missing' };
  const [workspace, maintainers] = await Promise.all([getWorkspace(workspaceId), listMaintainers(workspaceId)]);
  if (!workspace.ok) {
    redirectIfSessionEnded(workspace.problem);
    return workspace.problem.status === 404 ? { kind: 'missing' } : { kind: 'problem', problem: workspace.problem };
  }
  const userId = access.session.user.id;
  const maintainer = maintainers.ok && maintainers.data.items.some((item) => item.userId === userId);
  return {
    kind: 'ready',
    workspace: workspace.data,
    userId,
    can: access.can,
    permissions: definitionPermissions({ scopes: access.session.scopes, role: access.session.role, maintainer }),
  };
}
