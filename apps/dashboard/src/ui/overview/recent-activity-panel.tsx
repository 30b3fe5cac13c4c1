import Link from 'next/link';
import type { ActorDirectory } from '@/ui/audit/audit-labels';
import type { ApiResult } from '@/server/api-client';
import { AuditTable } from '@/ui/audit/audit-table';
import { ButtonLink } from '@/ui/button';
import { EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import type { AuditEventView, Page } from '@/views/api-views';

/** The latest audit entries; a caller who may not read the audit log gets what their role can do instead. */
export function RecentActivityPanel({
  canReadAudit,
  recent,
  directory,
}: {
  canReadAudit: boolean;
  recent: ApiResult<Page<AuditEventView>> | undefined;
  directory: ActorDirectory;
}) {
  if (!canReadAudit)
    return (
      <Panel id="getting-started" title="Getting started" description="What you can do with your role.">
        <ul>
          <li>
            <Link href="/workspaces">Browse the workspaces</Link> servers are approved for.
          </li>
          <li>
            <Link href="/tokens">Create an API token</Link> for scripts and the CLI that act as you.
          </li>
        </ul>
      </Panel>
    );
  return (
    <Panel
      id="recent-activity"
      title="Recent activity"
      description="The latest entries of the audit log."
      actions={
        <ButtonLink href="/audit" variant="secondary" size="small">
          Open the audit log
        </ButtonLink>
      }
    >
      {recent && !recent.ok ? (
        <ProblemCallout problem={recent.problem} context="Recent activity" />
      ) : recent && recent.data.items.length > 0 ? (
        <AuditTable compact events={recent.data.items} directory={directory} caption="Recent audit events" />
      ) : (
        <EmptyState title="No activity yet">
          Changes to workspaces, members and tokens are recorded here as they happen.
        </EmptyState>
      )}
    </Panel>
  );
}
