import type { AuditEventInput } from '../audit/audit-event';
import { auditSafeFields } from '../audit/audit-safe-text';

export type OAuthAuditAction =
  | 'oauth.sign_in_started'
  | 'oauth.sign_in_refused'
  | 'oauth.signed_in'
  | 'oauth.signed_out'
  | 'oauth.service_credential_chosen'
  | 'oauth.service_credential_signed_out';

type AuditValue = string | number | boolean | null;

/** An OAuth event: ids, names, issuers and reason words only, never a token, a code, a state or a secret. */
export function oauthAuditEvent(
  actor: AuditEventInput['actor'],
  action: OAuthAuditAction,
  credentialId: string | null,
  data: Readonly<Record<string, AuditValue>>,
): AuditEventInput {
  return {
    actor,
    action,
    target: { type: 'oauth_credential', id: credentialId },
    outcome: action === 'oauth.sign_in_refused' ? 'denied' : 'success',
    data: auditSafeFields<AuditValue>(data),
  };
}
