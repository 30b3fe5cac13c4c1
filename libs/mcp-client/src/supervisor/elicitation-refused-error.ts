import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { ElicitationRefusal } from './connection-supervisor';
import type { SelfClassifiedError } from './failure-class';

const ELICITATION_REFUSALS: ReadonlySet<string> = new Set<ElicitationRefusal>([
  'elicitation_outside_call',
  'elicitation_ambiguous',
  'elicitation_unsupported',
]);

/**
 * Whether a call's failure reason is our refusal of the upstream's elicitation: the upstream is fine, the call's
 * caller could not be asked (a 2026 upstream's input_required fails the call with it).
 */
export function isElicitationRefusal(reason: string): reason is ElicitationRefusal {
  return ELICITATION_REFUSALS.has(reason);
}

/**
 * Our refusal of an upstream's elicitation (decision 0107). To a 2025-era upstream it is the JSON-RPC error that
 * answers its `elicitation/create` (`data.reason` names why); on a 2026 connection the SDK asked for it while
 * fulfilling the call's input_required, so it fails that call, and the call's failure names the same reason.
 */
export class ElicitationRefusedError extends ProtocolError implements SelfClassifiedError {
  readonly failureClass = 'protocol' as const;

  constructor(readonly reason: ElicitationRefusal) {
    super(ProtocolErrorCode.InvalidRequest, 'Elicitation is not available', { reason });
  }
}
