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
  'approvals:decide',
  'catalog:read',
];
const MEMBER_SCOPES = ['tenant:read', 'workspaces:read', 'tokens:read', 'tokens:write', 'catalog:read'];

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
    });
  });

  it('never lets a non-admin mint service tokens, even holding tokens:write', () => {
    expect(capabilitiesOf(['tokens:write'], 'approver').createServiceTokens).toBe(false);
    expect(capabilitiesOf(['tokens:write'], 'admin').createServiceTokens).toBe(true);
  });
});
