import type { ProjectionChange } from '@gatehouse/activation';
import type { approvalRequestView, approvalView } from '@gatehouse/commands';
import { approvalRequestCauseView, APPROVAL_REQUEST_CLOSE_REASONS } from '@gatehouse/contracts';
import type { Approval, ApprovalRequest } from '@gatehouse/db';
import type { z } from 'zod';
import { shownProjection } from '../approval-requests/review-values';
import { identityOfRow } from '../effective-view/activation-inputs';

function changesOf(value: unknown): ProjectionChange[] {
  return Array.isArray(value) ? (value as ProjectionChange[]) : [];
}

type RequestView = z.infer<typeof approvalRequestView>;

/** A stored cause as the view names it; anything that does not read as one (older rows: none) is no cause. */
function causeOf(value: unknown): RequestView['cause'] {
  const parsed = approvalRequestCauseView.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function closeReasonOf(value: string | null): RequestView['closeReason'] {
  return APPROVAL_REQUEST_CLOSE_REASONS.find((reason) => reason === value) ?? null;
}

export function toApprovalRequestView(
  row: ApprovalRequest,
  decision: { readonly id: string; readonly reason: string | null } | null,
  fourEyes: boolean,
): RequestView {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    status: row.status,
    trigger: row.trigger as z.infer<typeof approvalRequestView>['trigger'],
    identity: identityOfRow(row),
    projection: shownProjection(row.projection),
    previousApprovalId: row.previousApprovalId,
    changes: changesOf(row.changes).map((change) => ({
      kind: change.kind,
      path: [...change.path],
      ...(change.kind === 'added' ? {} : { before: change.before }),
      ...(change.kind === 'removed' ? {} : { after: change.after }),
    })),
    authorUserIds: [...row.authorUserIds],
    openedAt: row.openedAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    closedBy: row.closedBy,
    approvalId: decision?.id ?? null,
    decisionReason: decision?.reason ?? null,
    cause: causeOf(row.cause),
    // Requests closed before close reasons were recorded: decided and superseded say it by their status.
    closeReason:
      closeReasonOf(row.closeReason) ??
      (row.status === 'decided' || row.status === 'superseded' ? row.status : null),
    fourEyes,
  };
}

export function toApprovalView(row: Approval): z.infer<typeof approvalView> {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    requestId: row.requestId,
    identity: identityOfRow(row),
    decision: row.decision,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt.toISOString(),
    reason: row.decisionReason,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedBy: row.revokedBy,
    revokeReason: row.revokeReason,
  };
}
