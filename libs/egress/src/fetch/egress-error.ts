// The one error the pinned fetch throws for anything it refused or could not complete. It names the origin
// only and carries no `cause`: an underlying socket error text contains the address it tried, and resolved
// addresses must not reach a tenant.
import type { AdmissionRefusalReason } from '../policy/egress-policy.js';

export type EgressFailureReason =
  AdmissionRefusalReason | 'redirect_refused' | 'response_too_large' | 'timeout' | 'connection_failed';

export class EgressError extends Error {
  override readonly name = 'EgressError';

  constructor(
    readonly reason: EgressFailureReason,
    readonly origin: string | null,
  ) {
    super(origin === null ? `egress ${reason}` : `egress ${reason}: ${origin}`);
  }
}

export function isEgressError(error: unknown): error is EgressError {
  return error instanceof EgressError;
}
