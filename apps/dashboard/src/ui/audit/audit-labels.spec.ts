import { actionLabel, detailEntries, targetLabel } from './audit-labels';
import type { AuditEventView } from '@/views/api-views';

const event = (action: string, targetType: string, data: Record<string, unknown>): AuditEventView => ({
  id: '00000000-0000-4000-8000-000000000001',
  seq: 1,
  occurredAt: '2026-12-01T10:00:00.000Z',
  actorType: 'user',
  actorId: 'u1',
  tokenKind: null,
  action,
  targetType,
  targetId: 't1',
  outcome: 'success',
  data,
  hash: '0'.repeat(64),
});

describe('audit labels', () => {
  it('labels actions from the one table, unknown codes as themselves', () => {
    expect(actionLabel('approvals.revoked')).toBe('Revoked an approval');
    expect(actionLabel('future.thing')).toBe('future.thing');
  });

  it('names the target: server, decision, fingerprint digits and expiry', () => {
    expect(
      targetLabel(
        event('approvals.requests.decided', 'approval_request', {
          serverName: 'tickets',
          decision: 'approved',
          definitionFingerprint: `v2:http:${'ab'.repeat(32)}`,
          expiresAt: '2027-01-01T12:30:00.000Z',
        }),
      ),
    ).toBe('approval request tickets · approved · fingerprint abababababab… · expires 2027-01-01 12:30 UTC');
    expect(
      targetLabel(event('approvals.revoked', 'approval', { serverName: 'tickets', decision: 'approved' })),
    ).toBe('approval tickets');
    expect(targetLabel(event('tokens.create', 'api_token', { name: 'ci' }))).toBe('API token ci');
  });

  it('puts the reason first in the detail', () => {
    expect(detailEntries(event('approvals.revoked', 'approval', { b: 1, reason: 'why', a: 'x' }))).toEqual([
      { key: 'reason', value: 'why' },
      { key: 'a', value: 'x' },
      { key: 'b', value: '1' },
    ]);
  });
});
