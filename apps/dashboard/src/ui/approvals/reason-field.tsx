import { MAX_DECISION_REASON } from '@gatehouse/contracts';
import { TextAreaField } from '../form-fields';

/**
 * The reason beside a decision: required to deny or revoke (the person who asks again reads it), optional to
 * approve. The limit is the API's own (MAX_DECISION_REASON), so the form never sends what the API refuses.
 */
export function ReasonField({ id, required, verb }: { id: string; required: boolean; verb: string }) {
  return (
    <TextAreaField
      id={id}
      name="reason"
      label={required ? `Why ${verb}? (required)` : `Why ${verb}? (optional)`}
      hint={`Shown on the request, in the server's approval history and in the audit log. At most ${MAX_DECISION_REASON} characters.`}
      required={required}
      maxLength={MAX_DECISION_REASON}
      rows={3}
    />
  );
}
