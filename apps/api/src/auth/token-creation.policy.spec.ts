import { ROLE_SCOPES, type MembershipRole } from '@gatehouse/commands';
import type { WorkerPools } from './pool-config';
import { decideTokenCreation, type TokenCreationRequest, type TokenCreator } from './token-creation.policy';

const WS = '5a0c4d0e-8f6a-4b1e-9a51-1c2d3e4f5a6b';
const OTHER_WS = '6b1d5e1f-9a7b-4c2f-8b62-2d3e4f5a6b7c';
const pools: WorkerPools = { default: { tenants: '*' }, eu: { tenants: ['acme'] } };
const context = { pools, existingWorkspaceIds: new Set([WS]) };

function creator(role: MembershipRole, overrides: Partial<TokenCreator> = {}): TokenCreator {
  return { tenantSlug: 'acme', userId: 'u-1', role, scopes: ROLE_SCOPES[role], ...overrides };
}

function request(overrides: Partial<TokenCreationRequest>): TokenCreationRequest {
  return { kind: 'user', scopes: ['tenant:read'], workspaceIds: [], pool: null, ...overrides };
}

describe('decideTokenCreation', () => {
  it('lets an admin mint a user token for themselves within their role', () => {
    const decision = decideTokenCreation(
      creator('admin'),
      request({ scopes: ['tokens:write', 'tokens:write'] }),
      context,
    );
    expect(decision).toEqual({
      ok: true,
      grant: { kind: 'user', scopes: ['tokens:write'], workspaceIds: [], pool: null, userId: 'u-1' },
    });
  });

  it('refuses gateway tokens to every tenant caller', () => {
    expect(
      decideTokenCreation(
        creator('owner'),
        request({ kind: 'gateway', scopes: ['tokens:introspect'] }),
        context,
      ),
    ).toEqual({
      ok: false,
      reason: 'gateway_tokens_are_operator_only',
    });
  });

  it('refuses a scope beyond the kind, naming it (approvals:decide on an agent token)', () => {
    const decision = decideTokenCreation(
      creator('owner'),
      request({ kind: 'agent', scopes: ['catalog:read', 'approvals:decide'], workspaceIds: [WS] }),
      context,
    );
    expect(decision).toEqual({ ok: false, reason: 'scope_not_allowed_for_kind', scope: 'approvals:decide' });
  });

  it('refuses tokens:introspect on a worker token', () => {
    const decision = decideTokenCreation(
      creator('admin'),
      request({ kind: 'worker', scopes: ['tokens:introspect'], pool: 'default' }),
      context,
    );
    expect(decision).toMatchObject({
      ok: false,
      reason: 'scope_not_allowed_for_kind',
      scope: 'tokens:introspect',
    });
  });

  it('lets members mint only their own user tokens, within their role', () => {
    expect(decideTokenCreation(creator('member'), request({ scopes: ['catalog:read'] }), context).ok).toBe(
      true,
    );
    expect(decideTokenCreation(creator('member'), request({ scopes: ['members:write'] }), context)).toEqual({
      ok: false,
      reason: 'scope_beyond_creator',
      scope: 'members:write',
    });
    expect(
      decideTokenCreation(
        creator('approver'),
        request({ kind: 'agent', scopes: ['catalog:read'], workspaceIds: [WS] }),
        context,
      ),
    ).toEqual({ ok: false, reason: 'kind_not_allowed_for_creator', kind: 'agent' });
  });

  it('keeps a user token within the credential that mints it, not only the role', () => {
    const narrowed = creator('admin', { scopes: ['tokens:write', 'tenant:read'] });
    expect(decideTokenCreation(narrowed, request({ scopes: ['members:write'] }), context)).toEqual({
      ok: false,
      reason: 'scope_beyond_creator',
      scope: 'members:write',
    });
  });

  it('refuses user tokens to callers without a user (agent or worker credentials)', () => {
    const decision = decideTokenCreation(creator('admin', { userId: null }), request({}), context);
    expect(decision).toEqual({ ok: false, reason: 'kind_not_allowed_for_creator', kind: 'user' });
  });

  it('requires agent tokens to be bound to existing workspaces of the tenant', () => {
    expect(
      decideTokenCreation(creator('admin'), request({ kind: 'agent', scopes: ['gateway:use'] }), context),
    ).toEqual({
      ok: false,
      reason: 'workspaces_required',
    });
    expect(
      decideTokenCreation(
        creator('admin'),
        request({ kind: 'agent', scopes: ['gateway:use'], workspaceIds: [OTHER_WS] }),
        context,
      ),
    ).toEqual({ ok: false, reason: 'workspace_not_found', workspaceId: OTHER_WS });
    const ok = decideTokenCreation(
      creator('admin'),
      request({ kind: 'agent', scopes: ['gateway:use'], workspaceIds: [WS.toUpperCase()] }),
      context,
    );
    expect(ok).toEqual({
      ok: true,
      grant: { kind: 'agent', scopes: ['gateway:use'], workspaceIds: [WS], pool: null, userId: null },
    });
  });

  it('requires worker tokens to name a pool open to the tenant', () => {
    const worker = (pool: string | null, tenantSlug = 'acme') =>
      decideTokenCreation(
        creator('owner', { tenantSlug }),
        request({ kind: 'worker', scopes: ['leases:write'], pool }),
        context,
      );
    expect(worker(null)).toEqual({ ok: false, reason: 'pool_required' });
    expect(worker('eu', 'globex')).toEqual({ ok: false, reason: 'pool_not_open', pool: 'eu' });
    expect(worker('nowhere')).toEqual({ ok: false, reason: 'pool_not_open', pool: 'nowhere' });
    expect(worker('eu')).toMatchObject({ ok: true, grant: { kind: 'worker', pool: 'eu', userId: null } });
  });

  it('refuses a pool on non-worker tokens and workspaces on user tokens', () => {
    expect(decideTokenCreation(creator('admin'), request({ pool: 'default' }), context)).toEqual({
      ok: false,
      reason: 'pool_not_allowed_for_kind',
    });
    expect(decideTokenCreation(creator('admin'), request({ workspaceIds: [WS] }), context)).toEqual({
      ok: false,
      reason: 'workspaces_not_allowed_for_kind',
    });
  });
});
