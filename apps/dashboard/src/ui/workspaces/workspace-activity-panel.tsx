import type { workspaceActivity } from '@/server/workspace-activity';
import type { ActorDirectory } from '@/ui/audit/audit-labels';
import { AuditTable } from '@/ui/audit/audit-table';
import { ButtonLink } from '@/ui/button';
import { EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import type { WorkspaceView } from '@/views/api-views';

// The latest audit events that concern one workspace (for those who may read the audit log).
export function WorkspaceActivityPanel({
  ws,
  events,
  directory,
}: {
  ws: WorkspaceView;
  events: Awaited<ReturnType<typeof workspaceActivity>>;
  directory: ActorDirectory;
}) {
  return (
    <Panel
      id="workspace-activity"
      title="Activity"
      description="Changes to this workspace and to what lives in it (sources, variables, approvals), newest first."
      actions={
        <ButtonLink href="/audit" variant="secondary" size="small">
          Open the audit log
        </ButtonLink>
      }
    >
      {!events.ok ? (
        <ProblemCallout problem={events.problem} context="Activity could not be loaded" />
      ) : events.events.length === 0 ? (
        <EmptyState title={events.complete ? 'No activity yet' : 'No recent activity'}>
          {events.complete
            ? 'Changes to this workspace, its sources, variables and approvals will be listed here.'
            : `None of the tenant’s latest ${events.scanned} audit events concern this workspace: search the audit log for older ones.`}
        </EmptyState>
      ) : (
        <AuditTable
          compact
          events={events.events}
          directory={directory}
          caption={`Audit events of ${ws.name}`}
        />
      )}
    </Panel>
  );
}
