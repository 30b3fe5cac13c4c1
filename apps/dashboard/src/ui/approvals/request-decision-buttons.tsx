import type { ApprovalRequestView } from '@/views/approval-views';
import { DecisionDialog } from './decision-dialog';

// Approve and deny on an open request's page; each dialog binds the decision to the identity shown.
export function RequestDecisionButtons({
  request,
  workspaceName,
}: {
  request: ApprovalRequestView;
  workspaceName: string;
}) {
  const { identity } = request;
  return (
    <>
      {(['approve', 'deny'] as const).map((decision) => (
        <DecisionDialog
          key={decision}
          decision={decision}
          requestId={request.id}
          serverName={identity.serverName}
          workspaceName={workspaceName}
          fingerprint={identity.definitionFingerprint}
          identityKey={identity.key}
          returnTo="request"
        />
      ))}
    </>
  );
}
