import type { AuditEventView } from '../views/api-views';
import { listAuditEvents } from './api-queries';
import type { ApiProblem } from './api-problem';

// A workspace's activity: not only the events whose target is the workspace (rename, trust, generation,
// maintainers, overlays) but also those about what lives in it — its project and local sources, its
// variables, its approval requests and decisions — which the audit log records against their own targets and
// names the workspace in their data. The audit API filters by one target, so the dashboard reads the newest
// events and keeps those that concern the workspace (bounded: a few pages).

/** Whether an audit event is about this workspace or something in it. */
export function concernsWorkspace(event: AuditEventView, workspaceId: string): boolean {
  if (event.targetType === 'workspace' && event.targetId === workspaceId) return true;
  const data = event.data;
  if (data['workspaceId'] === workspaceId) return true;
  const origin = data['origin'];
  return (
    typeof origin === 'string' &&
    (origin === `project:${workspaceId}` || origin.startsWith(`local:${workspaceId}:`))
  );
}

const PAGE_SIZE = 200;
const MAX_PAGES = 3;

export type WorkspaceActivity =
  | {
      readonly ok: true;
      readonly events: readonly AuditEventView[];
      /** How many of the tenant's newest events were read (all of them when `complete`). */
      readonly scanned: number;
      readonly complete: boolean;
    }
  | { readonly ok: false; readonly problem: ApiProblem };

/** The newest events that concern the workspace, at most `limit`, from the tenant's newest events. */
export async function workspaceActivity(workspaceId: string, limit = 10): Promise<WorkspaceActivity> {
  const events: AuditEventView[] = [];
  let cursor: string | undefined;
  let scanned = 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result = await listAuditEvents({ limit: PAGE_SIZE, cursor });
    if (!result.ok) return { ok: false, problem: result.problem };
    scanned += result.data.items.length;
    for (const event of result.data.items) {
      if (concernsWorkspace(event, workspaceId)) events.push(event);
      if (events.length >= limit) return { ok: true, events, scanned, complete: false };
    }
    if (result.data.nextCursor === null) return { ok: true, events, scanned, complete: true };
    cursor = result.data.nextCursor;
  }
  return { ok: true, events, scanned, complete: false };
}
