import type { ActorDirectory } from '@/ui/audit/audit-labels';
import type { ApprovalRequestView } from '@/views/approval-views';
import { personLabel } from './approval-labels';

/** Who a request is for: the workspace alone, or one person (per-user entries). */
export function RequestSubject({
  request,
  directory,
}: {
  request: ApprovalRequestView;
  directory: ActorDirectory;
}) {
  const principal = request.identity.principalUserId;
  return principal === null ? (
    <span>The workspace alone</span>
  ) : (
    <span>{personLabel(principal, directory)} only (per-user definition)</span>
  );
}

/** Who changed the definition under review. */
export function RequestAuthors({
  request,
  directory,
}: {
  request: ApprovalRequestView;
  directory: ActorDirectory;
}) {
  if (request.authorUserIds.length === 0)
    return <span className="muted">No person (a service or an import)</span>;
  return <span>{request.authorUserIds.map((id) => personLabel(id, directory)).join(', ')}</span>;
}
