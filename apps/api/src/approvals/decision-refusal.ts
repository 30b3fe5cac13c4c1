import { DECIDE_SCOPE, type DecisionRefusal } from '@gatehouse/activation';
import type { ApprovalRequest, Database } from '@gatehouse/db';
import type { ProblemError } from '@gatehouse/platform';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { TenantPrincipal } from '../auth/principal';
import { auditActorOf } from '../auth/audit-actor';
import { forbiddenScope } from '../shared/command-problems';
import { identityAuditData } from '../approval-requests/approval-identity-audit';
import {
  changedSinceReview,
  deciderNotHuman,
  fourEyesAuthor,
  roleCannotDecide,
  sourceUnreadable,
} from './approval-problems';
import { identityOfRow } from '../effective-view/activation-inputs';

/** Beyond what `canDecide` refuses: the request's source cannot be read now (request-source-state.ts). */
export interface SourceUnreadableRefusal {
  readonly ok: false;
  readonly reason: 'source_unreadable';
  readonly source: 'unreadable' | 'missing';
}

export type DecideRefusal = DecisionRefusal | SourceUnreadableRefusal;

/** The problem a refused decision answers with (stable codes; see approval-problems). */
export function problemOfRefusal(refusal: DecideRefusal): ProblemError {
  switch (refusal.reason) {
    case 'not_a_human_principal':
    case 'source_cannot_approve_itself':
      return deciderNotHuman();
    case 'missing_scope':
      return forbiddenScope(DECIDE_SCOPE);
    case 'role_cannot_decide':
      return roleCannotDecide();
    case 'author_cannot_approve':
      return fourEyesAuthor();
    case 'changed_since_review':
      return changedSinceReview(refusal.changed);
    case 'source_unreadable':
      return sourceUnreadable(refusal.source);
    default: {
      const unreachable: never = refusal;
      throw new Error(`unknown refusal ${String(unreachable)}`);
    }
  }
}

export interface RefusedDecision {
  readonly principal: TenantPrincipal;
  readonly request: ApprovalRequest;
  readonly verb: 'approve' | 'deny';
  readonly seenFingerprint: string;
  readonly seenIdentityKey: string;
  readonly refusal: DecideRefusal;
}

/**
 * Records a refused decision in its OWN transaction, committed before the refusal is thrown: the decision's
 * transaction wrote nothing, and a refusal recorded inside it would roll back with the error.
 */
export async function auditRefusedDecision(db: Database, refused: RefusedDecision): Promise<void> {
  const { principal, request, refusal } = refused;
  await db.withTenant(principal.tenantId, (tx) =>
    appendAuditEvent(tx, {
      actor: auditActorOf(principal),
      action: 'approvals.requests.decision_refused',
      target: { type: 'approval_request', id: request.id },
      outcome: 'denied',
      data: {
        workspaceId: request.workspaceId,
        decision: refused.verb,
        reason: refusal.reason,
        changed: refusal.reason === 'changed_since_review' ? [...refusal.changed] : [],
        ...(refusal.reason === 'source_unreadable' ? { source: refusal.source } : {}),
        // What the decider said they reviewed: hashes, never a definition value.
        seenFingerprint: refused.seenFingerprint,
        seenIdentity: refused.seenIdentityKey,
        ...identityAuditData(identityOfRow(request)),
      },
    }),
  );
}
