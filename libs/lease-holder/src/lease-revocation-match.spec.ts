import type { RevocationEvent } from '@gatehouse/contracts';
import type { HeldLeaseFacts } from './held-leases-registry';
import { leaseConcernedBy } from './lease-revocation-match';

const lease: HeldLeaseFacts = {
  leaseId: '5f0e8a51-1d0b-4c1e-9b55-0c8f6b1b7a01',
  tenantId: '1c7d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  workspaceId: '2d8e3f4a-5b6c-4d7e-9f8a-0b1c2d3e4f5a',
  serverName: 'everything',
  approvalId: '3e9f4a5b-6c7d-4e8f-8a9b-1c2d3e4f5a6b',
  principalUserId: null,
};

function event(
  kind: RevocationEvent['kind'],
  subject: RevocationEvent['subject'],
  tenantId = lease.tenantId,
) {
  return { seq: 1, tenantId, kind, subject, occurredAt: '2026-12-01T12:00:00.000Z' } as RevocationEvent;
}

describe('leaseConcernedBy', () => {
  it('matches the lease’s approval, server and workspace, and an event that names none of them', () => {
    expect(leaseConcernedBy(event('approval_revoked', { approvalId: lease.approvalId }), lease)).toBe(true);
    expect(
      leaseConcernedBy(
        event('definition_changed', { workspaceId: lease.workspaceId, serverName: 'everything' }),
        lease,
      ),
    ).toBe(true);
    expect(leaseConcernedBy(event('host_policy_changed', {}), lease)).toBe(true);
  });

  it('leaves leases of another approval, server, workspace or tenant alone', () => {
    const other = '4fa05b6c-7d8e-4f9a-9b0c-2d3e4f5a6b7c';
    expect(leaseConcernedBy(event('approval_revoked', { approvalId: other }), lease)).toBe(false);
    expect(leaseConcernedBy(event('definition_changed', { serverName: 'github' }), lease)).toBe(false);
    expect(leaseConcernedBy(event('workspace_trust_changed', { workspaceId: other }), lease)).toBe(false);
    expect(leaseConcernedBy(event('host_policy_changed', {}, other), lease)).toBe(false);
  });

  it('drops on doubt: token ids it cannot compare; a user’s change only for that principal', () => {
    expect(leaseConcernedBy(event('token_revoked', { tokenIds: [lease.approvalId] }), lease)).toBe(true);
    const user = '6b1c2d3e-4f5a-4b6c-8d7e-3f4a5b6c7d8e';
    expect(leaseConcernedBy(event('variable_changed', { userId: user }), lease)).toBe(false);
    expect(
      leaseConcernedBy(event('variable_changed', { userId: user }), { ...lease, principalUserId: user }),
    ).toBe(true);
    expect(leaseConcernedBy(event('member_changed', { userId: user, tokenIds: [] }), lease)).toBe(true);
  });
});
