import type { ApprovalIdentity } from '../approval-identity';
import type { DecisionRefusal } from '../decision-authority.check';
import type { ApprovalRequestTrigger } from './approval-store.port';

/**
 * Audit events of the approval workflow. Each carries the full identity (names, origins, fingerprints, identity
 * keys: never a secret value) and who acted.
 */
export type ActivationAuditEvent =
  | {
      readonly type: 'approval.requested';
      readonly requestId: string;
      readonly identity: ApprovalIdentity;
      readonly trigger: ApprovalRequestTrigger;
    }
  | {
      readonly type: 'approval.decided';
      readonly requestId: string;
      readonly approvalId: string;
      readonly identity: ApprovalIdentity;
      readonly decision: 'approved' | 'denied';
      readonly decidedBy: string;
      readonly expiresAt: Date | null;
    }
  | {
      readonly type: 'approval.decision_refused';
      readonly requestId: string;
      readonly identity: ApprovalIdentity;
      readonly actor: string;
      readonly reason: DecisionRefusal['reason'];
    }
  | {
      readonly type: 'approval.revoked';
      readonly approvalId: string;
      readonly identity: ApprovalIdentity;
      readonly revokedBy: string;
    };

/** Where the workflow's audit events go (the API appends them to the tenant's hash-chained audit log). */
export interface ActivationAuditPort {
  record(tenantId: string, event: ActivationAuditEvent): Promise<void>;
}
