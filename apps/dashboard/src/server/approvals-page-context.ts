import type { NameLookup } from '../ui/approvals/review-model';
import type { ActorDirectory } from '../ui/audit/audit-labels';
import type { WorkspaceView } from '../views/api-views';
import { actorDirectory } from './actor-directory';
import { listWorkspaces } from './api-queries';
import type { Capabilities } from './capabilities';

// What the Approvals pages show next to the API's ids: workspace names and people's names. A failure here
// only costs names (the requests still show, with short ids), so neither read fails the page.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A URL parameter as an id, only when it has the shape of one (anything else never reaches an API path). */
export function uuidParam(value: string | undefined): string | undefined {
  return value !== undefined && UUID.test(value) ? value : undefined;
}

export interface ApprovalsPageContext {
  readonly workspaces: readonly WorkspaceView[];
  readonly directory: ActorDirectory;
  workspaceName(workspaceId: string): string;
  /** Names only where the reader may see them (undefined otherwise), for ids inside origins. */
  readonly names: NameLookup;
}

export async function approvalsPageContext(can: Capabilities): Promise<ApprovalsPageContext> {
  const [workspaces, directory] = await Promise.all([
    can.readWorkspaces ? listWorkspaces({ limit: 100 }) : undefined,
    actorDirectory(can),
  ]);
  const items = workspaces?.ok ? workspaces.data.items : [];
  const names = new Map(items.map((workspace) => [workspace.id, workspace.name]));
  return {
    workspaces: items,
    directory,
    workspaceName: (workspaceId) => names.get(workspaceId) ?? `workspace ${workspaceId.slice(0, 8)}`,
    names: {
      workspaceName: (workspaceId) => names.get(workspaceId),
      personName: (userId) => directory[userId],
    },
  };
}
