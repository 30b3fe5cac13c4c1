import Link from 'next/link';
import { DataTable } from '@/ui/data-table';
import { DateTime } from '@/ui/date-time';
import { Badge, EmptyState } from '@/ui/feedback';
import { Pager } from '@/ui/pager';
import type { ApprovalRequestView } from '@/views/approval-views';
import { causeLabel, personLabel, REQUEST_STATUS_LABELS, triggerLabel } from './approval-labels';
import { approvalsPagerKeep, type ApprovalsListPage } from './approvals-list-page';

// The Approvals page's "Closed" tab: decided, superseded and withdrawn requests.
export function ClosedRequestsTable({
  items,
  nextCursor,
  context,
  workspaceId,
  current,
  pageSize,
}: ApprovalsListPage<ApprovalRequestView>) {
  if (items.length === 0 && current.cursor === undefined) {
    return (
      <EmptyState title="No closed requests yet">
        A request closes when it is decided, when the server changes again before anyone decided (superseded
        by a newer request), or when what it was opened for no longer exists (withdrawn).
      </EmptyState>
    );
  }
  return (
    <DataTable
      caption="Closed requests"
      filterLabel="Filter closed requests"
      columns={[
        { id: 'server', label: 'Server', sortable: true },
        { id: 'workspace', label: 'Workspace', sortable: true },
        { id: 'status', label: 'Status', sortable: true },
        { id: 'trigger', label: 'Opened because', sortable: true },
        { id: 'changes', label: 'Changed fields', numeric: true, sortable: true },
        { id: 'opened', label: 'Opened', sortable: true },
        { id: 'closed', label: 'Closed', sortable: true },
        { id: 'by', label: 'Closed by' },
      ]}
      rows={items.map((request) => {
        const status = REQUEST_STATUS_LABELS[request.status];
        const workspace = context.workspaceName(request.workspaceId);
        return {
          id: request.id,
          cells: [
            <Link key="s" href={`/approvals/${request.id}`}>
              {request.identity.serverName}
            </Link>,
            workspace,
            <Badge key="st" tone={status.tone}>
              {status.label}
            </Badge>,
            causeLabel(request.cause) ?? triggerLabel(request.trigger),
            request.changes.length,
            <DateTime key="o" value={request.openedAt} />,
            <DateTime key="c" value={request.closedAt} />,
            request.closedBy !== null ? (
              personLabel(request.closedBy, context.directory)
            ) : (
              <span key="b" className="muted">
                {request.status === 'superseded' ? 'A newer request' : '—'}
              </span>
            ),
          ],
          sort: [
            request.identity.serverName,
            workspace,
            status.label,
            causeLabel(request.cause) ?? triggerLabel(request.trigger),
            request.changes.length,
            request.openedAt,
            request.closedAt,
            null,
          ],
          search: `${request.identity.serverName} ${workspace} ${status.label} ${triggerLabel(request.trigger)}`,
        };
      })}
      footer={
        <Pager
          path="/approvals"
          keep={approvalsPagerKeep('closed', workspaceId)}
          current={current}
          pageSize={pageSize}
          nextCursor={nextCursor}
          label="Closed request pages"
        />
      }
    />
  );
}
