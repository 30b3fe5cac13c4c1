import {
  DISCOVERY_FAILURE_CLASSES,
  isDiscoveryFailureReason,
  type DiscoveryFailureReason,
  type DiscoveryFailureReport,
} from '@gatehouse/contracts';
import type { ConnectFailureReason } from '@gatehouse/mcp-client';

// The supervisor's failure as the two words the API accepts (decision 0142). Only the class and the reason word
// cross over: a ConnectFailure's origin and detail (an address, an env name) stay in the worker's log.

/**
 * Every word connectAdmitted may answer has a sentence in libs/contracts: a word added to ConnectFailureReason
 * fails to compile here until DISCOVERY_FAILURE_SENTENCES names it (it would read as `unlisted` otherwise).
 */
type ConnectReasonsWithoutSentence = Exclude<ConnectFailureReason, DiscoveryFailureReason>;
export const EVERY_CONNECT_REASON_HAS_A_SENTENCE: [ConnectReasonsWithoutSentence] extends [never]
  ? true
  : ConnectReasonsWithoutSentence = true;

/** A templated word of classifyFailure (`egress_<reason>`) reads as the connect word it refines. */
const EGRESS_WORD = /^egress_/;

export function discoveryFailureReportOf(
  failure: { readonly failureClass: string; readonly reason: string } | undefined,
): DiscoveryFailureReport {
  if (failure === undefined) return { failureClass: 'fatal', reason: 'no_catalog' };
  const failureClass = (DISCOVERY_FAILURE_CLASSES as readonly string[]).includes(failure.failureClass)
    ? (failure.failureClass as DiscoveryFailureReport['failureClass'])
    : 'fatal';
  const reason: DiscoveryFailureReason = isDiscoveryFailureReason(failure.reason)
    ? failure.reason
    : EGRESS_WORD.test(failure.reason)
      ? 'egress_failed'
      : 'unlisted';
  return { failureClass, reason };
}
