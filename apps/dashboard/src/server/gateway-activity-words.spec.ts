import { GATEWAY_ACTIVITY_REFUSALS, GATEWAY_CALL_OUTCOMES } from '@gatehouse/contracts';
import {
  callOutcomeLabel,
  countInWords,
  refusalReasonLabel,
  sessionsInWords,
} from './gateway-activity-words';

describe('gateway activity words', () => {
  it('has a sentence for every outcome and refusal the gateway records, never the bare code', () => {
    for (const outcome of GATEWAY_CALL_OUTCOMES) expect(callOutcomeLabel(outcome)).not.toBe(outcome);
    for (const reason of GATEWAY_ACTIVITY_REFUSALS) expect(refusalReasonLabel(reason)).not.toBe(reason);
    expect(refusalReasonLabel('rate_limited_token')).toContain('per-token rate limit');
  });

  it('shows a word it has no label for as itself', () => {
    expect(callOutcomeLabel('cancelled')).toBe('cancelled');
    expect(refusalReasonLabel('quota')).toBe('quota');
  });

  it('counts in words', () => {
    expect(sessionsInWords(1, 1)).toBe('1 open session');
    expect(sessionsInWords(0, 0)).toBe('0 open sessions');
    expect(sessionsInWords(3, 2)).toBe('3 open sessions on 2 gateway replicas');
    expect(countInWords(0, 'call', 'calls', 60)).toBe('No calls in the last hour');
    expect(countInWords(1, 'call', 'calls', 60)).toBe('1 call in the last hour');
    expect(countInWords(7, 'refusal', 'refusals', 30)).toBe('7 refusals in the last 30 minutes');
  });
});
