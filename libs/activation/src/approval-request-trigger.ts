/**
 * The events that open an approval request. Requests are opened by events, never inside a read, so listing
 * servers or deciding activation never writes.
 */
export type ApprovalRequestTrigger =
  | 'source_written'
  | 'variable_changed'
  | 'overlay_changed'
  | 'generation_bumped'
  | 'trust_changed'
  | 'lease_refused_pending'
  /** Someone asked for review (`approvals.requests.open`), e.g. after a revocation. */
  | 'review_requested';
