import { EmptyState } from '@/ui/feedback';
import { Pager } from '@/ui/pager';
import type { ApprovalRequestView } from '@/views/approval-views';
import styles from './approvals.module.css';
import { approvalsPagerKeep, type ApprovalsListPage } from './approvals-list-page';
import { RequestCard } from './request-card';

// The Approvals page's queue: the open requests, newest first, each with its changes and the decision buttons.
export function ApprovalsQueue({
  items,
  nextCursor,
  context,
  canDecide,
  userId,
  workspaceId,
  current,
  pageSize,
}: ApprovalsListPage<ApprovalRequestView> & { readonly canDecide: boolean; readonly userId: string }) {
  if (items.length === 0 && current.cursor === undefined) {
    return (
      <EmptyState title="Nothing waits for review">
        Requests appear here when a server’s definition is written or changes, when a workspace is trusted or
        starts a new generation, and when someone asks for review on the Servers page.
      </EmptyState>
    );
  }
  return (
    <section aria-label="Open requests" className="stack-sm">
      <p className="muted">
        {items.length} open {items.length === 1 ? 'request' : 'requests'} on this page, newest first.
        {canDecide ? ' Each decision covers exactly the definition shown.' : ''}
      </p>
      <ul className={styles.queue}>
        {items.map((request) => (
          <li key={request.id}>
            <RequestCard
              request={request}
              workspaceName={context.workspaceName(request.workspaceId)}
              directory={context.directory}
              names={context.names}
              userId={userId}
              canDecide={canDecide}
            />
          </li>
        ))}
      </ul>
      <Pager
        path="/approvals"
        keep={approvalsPagerKeep('queue', workspaceId)}
        current={current}
        pageSize={pageSize}
        nextCursor={nextCursor}
        label="Queue pages"
      />
    </section>
  );
}
