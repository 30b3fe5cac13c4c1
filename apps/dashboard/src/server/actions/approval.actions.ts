'use server';

import { approvalRequestView, approvalView, decisionReason } from '@gatehouse/contracts';
import { refresh } from 'next/cache';
import { redirect } from 'next/navigation';
import { EXPIRY_DAYS } from '@/ui/approvals/approval-labels';
import { refuseUnless } from '../action-guard';
import { failure, success, type ActionState } from '../action-state';
import { callApi } from '../api-client';
import { invalidInputProblem } from '../api-problem';
import { decisionProblem } from '../decision-problems';
import { idField, textField } from '../form-data';

// The writes of the approval workflow. A decision posts what the approver SAW (the request's fingerprint and
// identity key, rendered into the form with the request): the API refuses it if the server changed since, so a
// decision never lands on a definition nobody reviewed. Each action asks again who is calling.

const IDENTITY_KEY = /^aid:v1:[0-9a-f]{64}$/;

/** The form's reason as the API takes it (decisionReason): trimmed; absent when empty. */
function reasonOf(form: FormData): { reason?: string; problem?: ActionState } {
  const reason = textField(form, 'reason').trim();
  if (reason === '') return {};
  const parsed = decisionReason.safeParse(reason);
  if (!parsed.success)
    return { problem: invalid('reason', parsed.error.issues[0]?.message ?? 'Check the reason.') };
  return { reason: parsed.data };
}

function invalid(path: string, message: string): ActionState {
  return failure(invalidInputProblem([{ path, message }]));
}

export async function decideApprovalAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('decideApprovals');
  if (refusal) return failure(refusal);
  const requestId = idField(form, 'requestId');
  if (requestId === undefined) return invalid('requestId', 'No request was named.');
  const decision = textField(form, 'decision');
  if (decision !== 'approve' && decision !== 'deny') return invalid('decision', 'Choose approve or deny.');
  const seenFingerprint = textField(form, 'seenFingerprint');
  const seenIdentityKey = textField(form, 'seenIdentityKey');
  if (seenFingerprint === '' || seenFingerprint.length > 200 || !IDENTITY_KEY.test(seenIdentityKey)) {
    return invalid('seenFingerprint', 'The reviewed definition was not named; reload the request.');
  }
  const days = textField(form, 'expiresInDays');
  let expiresAt: string | undefined;
  if (decision === 'approve' && days !== '') {
    const count = Number(days);
    if (!(EXPIRY_DAYS as readonly number[]).includes(count))
      return invalid('expiresInDays', 'Choose how long it holds.');
    expiresAt = new Date(Date.now() + count * 24 * 3600 * 1000).toISOString();
  }
  const { reason, problem } = reasonOf(form);
  if (problem !== undefined) return problem;
  if (decision === 'deny' && reason === undefined)
    return invalid('reason', 'Say why you deny it: whoever asks again reads it.');
  const result = await callApi({
    answer: approvalView,
    method: 'POST',
    path: `/v1/approval-requests/${requestId}/decision`,
    body: {
      decision,
      seenFingerprint,
      seenIdentityKey,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(reason !== undefined ? { reason } : {}),
    },
  });
  if (!result.ok) return failure(decisionProblem(result.problem));
  // Back to where the decision was made, which says what was decided (the request left the queue).
  redirect(
    textField(form, 'returnTo') === 'request'
      ? `/approvals/${requestId}?decided=1`
      : `/approvals?decided=${requestId}`,
  );
}

export async function revokeApprovalAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('revokeApprovals');
  if (refusal) return failure(refusal);
  const approvalId = idField(form, 'approvalId');
  if (approvalId === undefined) return invalid('approvalId', 'No decision was named.');
  const { reason, problem } = reasonOf(form);
  if (problem !== undefined) return problem;
  if (reason === undefined) return invalid('reason', 'Say why it is revoked: whoever relied on it reads it.');
  const result = await callApi({
    answer: approvalView,
    method: 'POST',
    path: `/v1/approvals/${approvalId}/revoke`,
    body: { reason },
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(
    `The ${result.data.decision === 'approved' ? 'approval' : 'denial'} of ${result.data.identity.serverName} is revoked.`,
  );
}

export async function requestReviewAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('requestReview');
  if (refusal) return failure(refusal);
  const workspaceId = idField(form, 'workspaceId');
  if (workspaceId === undefined) return invalid('workspaceId', 'No workspace was named.');
  const serverName = textField(form, 'serverName');
  if (serverName === '' || serverName.length > 128) return invalid('serverName', 'No server was named.');
  const view = textField(form, 'view') === 'principal' ? 'principal' : 'workspace';
  const result = await callApi({
    answer: approvalRequestView,
    method: 'POST',
    path: `/v1/workspaces/${workspaceId}/approval-requests`,
    body: { serverName, view },
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(`Review requested for ${result.data.identity.serverName}: approvers see it in their queue.`);
}
