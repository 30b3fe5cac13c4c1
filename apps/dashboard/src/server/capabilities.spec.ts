import { capabilitiesOf } from './capabilities';

const ADMIN_SCOPES = [
  'tenant:read',
  'tenant:write',
  'members:read',
  'members:write',
  'workspaces:read',
  'workspaces:write',
  'tokens:read',
  'tokens:write',
  'audit:read',
  'approvals:read',
  'approvals:decide',
  'catalog:read',
  'catalog:refresh',
  'definitions:read',
  'definitions:write',
];
const MEMBER_SCOPES = [
  'tenant:read',
  'workspaces:read',
  'tokens:read',
  'tokens:write',
  'catalog:read',
  'definitions:read',
  'definitions:write',
];
const APPROVER_SCOPES = [
  'tenant:read',
  'members:read',
  'workspaces:read',
  'tokens:read',
  'tokens:write',
  'audit:read',
  'approvals:read',
  'approvals:decide',
  'catalog:read',
  'definitions:read',
  'definitions:write',
];

describe('capabilitiesOf', () => {
  it('gives an owner every admin capability', () => {
    expect(Object.values(capabilitiesOf(ADMIN_SCOPES, 'owner')).every(Boolean)).toBe(true);
  });

  it('gives a member read access to workspaces and their own user tokens, and nothing admin', () => {
    expect(capabilitiesOf(MEMBER_SCOPES, 'member')).toEqual({
      readTenant: true,
      readWorkspaces: true,
      manageWorkspaces: false,
      readMembers: false,
      manageMembers: false,
      readTokens: true,
      createTokens: true,
      createServiceTokens: false,
      readAudit: false,
      readApprovals: false,
      decideApprovals: false,
      revokeApprovals: false,
      requestReview: true,
      manageHostPolicy: false,
      readCatalog: true,
      refreshCatalog: false,
      signInToServers: true,
    });
  });

  it('lets an approver read and decide approvals, but neither revoke nor edit the host policy', () => {
    const can = capabilitiesOf(APPROVER_SCOPES, 'approver');
    expect([can.readApprovals, can.decideApprovals, can.requestReview]).toEqual([true, true, true]);
    expect([can.revokeApprovals, can.manageHostPolicy]).toEqual([false, false]);
  });

  it('keeps revoking and the host policy to owners and admins even when a scope is present', () => {
    expect(capabilitiesOf(['approvals:decide', 'tenant:write'], 'approver').revokeApprovals).toBe(false);
    expect(capabilitiesOf(['approvals:decide', 'tenant:write'], 'approver').manageHostPolicy).toBe(false);
    expect(capabilitiesOf(['approvals:decide', 'tenant:write'], 'admin').revokeApprovals).toBe(true);
    expect(capabilitiesOf(['approvals:decide', 'tenant:write'], 'admin').manageHostPolicy).toBe(true);
  });

  it('never lets a non-admin mint service tokens, even holding tokens:write', () => {
    expect(capabilitiesOf(['tokens:write'], 'approver').createServiceTokens).toBe(false);
    expect(capabilitiesOf(['tokens:write'], 'admin').createServiceTokens).toBe(true);
  });
});
