import { PROBE_FAILURE_CLASSES } from '@gatehouse/contracts';
import { FAILURE_CLASS_WORDS, probeSubject, reasonInWords } from './connection-labels';

const probe = {
  principalUserId: null,
  state: 'failed',
  failureClass: 'auth',
  reason: 'unauthorized',
  definitionFingerprint: 'f',
  protocolVersion: null,
  serverVersion: null,
  probedAt: '2026-12-01T00:00:00.000Z',
} as const;

describe('connection words', () => {
  it('names every failure class the contract declares', () => {
    expect(Object.keys(FAILURE_CLASS_WORDS).sort()).toEqual([...PROBE_FAILURE_CLASSES].sort());
  });

  it('says the client’s fixed reason in words', () => {
    expect(reasonInWords('startup_timeout')).toBe('startup timeout');
  });

  it('tells the workspace’s report from the reader’s own', () => {
    expect(probeSubject(probe)).toBe('The workspace');
    expect(probeSubject({ ...probe, principalUserId: '00000000-0000-4000-8000-000000000000' })).toBe('You');
  });
});
