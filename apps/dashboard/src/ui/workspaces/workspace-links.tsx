import Link from 'next/link';
import { Badge } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';
import type { WorkspaceView } from '@/views/api-views';

// The workspace page's links to what lives in the workspace: servers, sources, variables, approvals (with the
// count of open requests) and its activity.
export function WorkspaceLinks({
  ws,
  canReadApprovals,
  pendingHere,
  pendingMore,
  showActivity,
}: {
  ws: WorkspaceView;
  canReadApprovals: boolean;
  pendingHere: number | undefined;
  pendingMore: boolean;
  showActivity: boolean;
}) {
  return (
    <nav aria-label="In this workspace" id="workspace-links" className={styles.workspaceLinks}>
      <ul>
        <li>
          <Link href={`/servers/${ws.id}`}>
            <strong>Servers</strong>
            <span className="muted">What runs here, and whether it is approved</span>
          </Link>
        </li>
        <li>
          <Link href={`/servers/${ws.id}/sources`}>
            <strong>Sources</strong>
            <span className="muted">The definitions, per tier</span>
          </Link>
        </li>
        <li>
          <Link href={`/servers/${ws.id}/variables`}>
            <strong>Variables</strong>
            <span className="muted">Values the definitions reference</span>
          </Link>
        </li>
        {canReadApprovals ? (
          <li>
            <Link href={`/approvals?workspaceId=${ws.id}`}>
              <strong>
                Approvals
                {pendingHere !== undefined && pendingHere > 0 ? (
                  <Badge tone="accent">{`${pendingHere}${pendingMore ? '+' : ''} open`}</Badge>
                ) : null}
              </strong>
              <span className="muted">Requests and decisions for this workspace</span>
            </Link>
          </li>
        ) : null}
        {showActivity ? (
          <li>
            <Link href="#workspace-activity">
              <strong>Activity</strong>
              <span className="muted">Recent changes here</span>
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
