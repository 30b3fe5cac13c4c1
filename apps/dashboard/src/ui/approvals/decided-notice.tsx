import Link from 'next/link';
import { Callout } from '@/ui/feedback';
import type { ApprovalRequestView } from '@/views/approval-views';

/** After a decision (the action redirects to the Approvals page): what was decided, announced. */
export function DecidedNotice({
  request,
  workspaceName,
  verb,
}: {
  request: ApprovalRequestView;
  workspaceName: string;
  /** `approved` or `denied` when the decision could be read, else `decided`. */
  verb: string;
}) {
  return (
    <Callout tone="success" title="Decision recorded" live>
      <p>
        {request.identity.serverName} in {workspaceName} is {verb}.{' '}
        <Link href={`/approvals/${request.id}`}>View the request</Link>
      </p>
    </Callout>
  );
}
