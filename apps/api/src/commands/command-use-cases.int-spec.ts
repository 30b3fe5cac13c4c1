import { randomUUID } from 'node:crypto';
import { ROLE_SCOPES } from '@gatehouse/commands';
import {
  createTestWorkspace,
  TEST_DATABASE_TIMEOUT_MS,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import type { TenantPrincipal } from '../auth/principal';
import { ProblemError } from '@gatehouse/platform';
import { callCommand } from './testing/command-clients';
import {
  TEST_PASSWORD,
  bearer,
  createMember,
  createSurfacesHarness,
  createTestTenant,
  mintTestToken,
  type SurfacesHarness,
} from './testing/surfaces-harness';
import { CreateWorkspaceUseCase } from '../workspaces/create-workspace.use-case';
import { GetWorkspaceUseCase } from '../workspaces/get-workspace.use-case';
import { ListWorkspacesUseCase } from '../workspaces/list-workspaces.use-case';

// The rules the use cases add on top of scopes, through the real stack: audit events in the same transaction,
// member removal revoking access in this tenant only, the last owner under concurrency, compare-and-swap on
// the generation, who sees which tokens, idempotent revocation, and workspace-bound credentials.

jest.setTimeout(60_000);

let h: SurfacesHarness;

beforeAll(async () => {
  h = await createSurfacesHarness();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, TEST_DATABASE_TIMEOUT_MS);

async function tenantWithOwner(): Promise<{ tenant: TestTenant; owner: TestUser; token: string }> {
  const tenant = await createTestTenant(h.db, { slug: `t-${randomUUID().slice(0, 8)}` });
  const owner = await createMember(h.db, tenant, 'owner');
  const token = (await mintTestToken(h.db, tenant, owner, { kind: 'user' })).secret;
  return { tenant, owner, token };
}

describe('audit', () => {
  it('records each mutation with actor, action, target and outcome, in the same transaction', async () => {
    const { tenant, owner, token } = await tenantWithOwner();
    const created = await callCommand('rest', h.app, 'workspaces.create', { name: 'audited' }, token);
    if (!created.ok) throw new Error('create failed');
    const renamed = await callCommand(
      'graphql',
      h.app,
      'workspaces.rename',
      { workspaceId: created.output.id, name: 'audited 2' },
      token,
    );
    expect(renamed.ok).toBe(true);
    // A refused mutation leaves no event behind (its transaction rolled back).
    const refused = await callCommand('rest', h.app, 'workspaces.create', { name: 'audited 2' }, token);
    expect(refused).toMatchObject({ ok: false, code: 'conflict' });

    const events = await h.db.withTenant(tenant.id, (tx) =>
      tx.auditEvent.findMany({ orderBy: { seq: 'asc' } }),
    );
    expect(events.map((e) => e.action)).toEqual(['workspaces.create', 'workspaces.rename']);
    expect(events[1]).toMatchObject({
      actorType: 'user',
      actorId: owner.id,
      tokenKind: 'user',
      targetType: 'workspace',
      targetId: created.output.id,
      outcome: 'success',
      data: { from: 'audited', to: 'audited 2' },
    });
    const verified = await callCommand('rest', h.app, 'audit.verify', {}, token);
    expect(verified).toMatchObject({ ok: true, output: { ok: true, checkedRows: 2 } });
  });
});

describe('members', () => {
  it('removing a member revokes their sessions and tokens in this tenant only', async () => {
    const { tenant: acme, token: acmeOwnerToken } = await tenantWithOwner();
    const { tenant: globex, owner: globexOwner } = await tenantWithOwner();
    const person = await createMember(h.db, globex, 'member');
    const invited = await callCommand(
      'rest',
      h.app,
      'invitations.create',
      { email: person.email, role: 'admin' },
      acmeOwnerToken,
    );
    if (!invited.ok) throw new Error('invite failed');
    const globexToken = (await mintTestToken(h.db, globex, person, { kind: 'user' })).secret;
    const accepted = await callCommand(
      'rest',
      h.app,
      'invitations.accept',
      { secret: invited.output.secret },
      globexToken,
    );
    expect(accepted.ok).toBe(true);
    const asAcmeAdmin: TestUser = { ...person, role: 'admin' };
    const acmeToken = (await mintTestToken(h.db, acme, asAcmeAdmin, { kind: 'user' })).secret;
    const login = await h.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: person.email, password: TEST_PASSWORD, tenant: acme.slug },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
    expect((await h.app.inject({ method: 'GET', url: '/v1/me', headers: { cookie } })).statusCode).toBe(200);
    const ws = await createTestWorkspace(h.db, acme.id);
    await callCommand(
      'rest',
      h.app,
      'workspaces.maintainers.add',
      { workspaceId: ws.id, userId: person.id },
      acmeOwnerToken,
    );

    const removed = await callCommand(
      'graphql',
      h.app,
      'members.remove',
      { userId: person.id },
      acmeOwnerToken,
    );
    expect(removed).toMatchObject({ ok: true, output: { removed: true } });

    expect(
      (await h.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(acmeToken) })).statusCode,
    ).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/v1/me', headers: { cookie } })).statusCode).toBe(401);
    const maintainers = await callCommand(
      'rest',
      h.app,
      'workspaces.maintainers.list',
      { workspaceId: ws.id },
      acmeOwnerToken,
    );
    expect(maintainers).toMatchObject({ ok: true, output: { items: [] } });
    // Their own tenant is untouched.
    const elsewhere = await h.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(globexToken) });
    expect(elsewhere.statusCode).toBe(200);
    expect(JSON.parse(elsewhere.body)).toMatchObject({ tenantId: globex.id });
    const globexMembers = await h.db.withTenant(globex.id, (tx) =>
      tx.membership.count({ where: { userId: { in: [person.id, globexOwner.id] } } }),
    );
    expect(globexMembers).toBe(2);
  });

  it('never lets two concurrent demotions remove the last owner', async () => {
    const { tenant, owner: first, token: firstToken } = await tenantWithOwner();
    const second = await createMember(h.db, tenant, 'owner');
    const secondToken = (await mintTestToken(h.db, tenant, second, { kind: 'user' })).secret;
    const results = await Promise.all([
      callCommand('rest', h.app, 'members.changeRole', { userId: second.id, role: 'admin' }, firstToken),
      callCommand('rest', h.app, 'members.changeRole', { userId: first.id, role: 'admin' }, secondToken),
    ]);
    const owners = await h.db.withTenant(tenant.id, (tx) =>
      tx.membership.count({ where: { role: 'owner' } }),
    );
    expect(owners).toBe(1);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    // The loser either saw the last owner (409) or had already lost its own owner role (its token's scopes
    // follow the current role, so it may no longer be allowed to touch an owner at all).
    expect(results.find((r) => !r.ok)).toMatchObject({ ok: false, status: expect.any(Number) });
    expect([403, 409]).toContain(results.find((r) => !r.ok)?.status);
  });

  it('lets an owner grant the owner role, and then demote the former last owner', async () => {
    const { tenant, owner, token } = await tenantWithOwner();
    const other = await createMember(h.db, tenant, 'admin');
    expect(
      await callCommand('rest', h.app, 'members.changeRole', { userId: other.id, role: 'owner' }, token),
    ).toMatchObject({ ok: true });
    expect(
      await callCommand('rest', h.app, 'members.changeRole', { userId: owner.id, role: 'admin' }, token),
    ).toMatchObject({
      ok: true,
      output: { role: 'admin' },
    });
  });
});

describe('workspaces', () => {
  it('bumps the generation with compare-and-swap: of two bumps from the same generation one wins', async () => {
    const { tenant, token } = await tenantWithOwner();
    const ws = await createTestWorkspace(h.db, tenant.id);
    const results = await Promise.all([
      callCommand(
        'rest',
        h.app,
        'workspaces.bumpGeneration',
        { workspaceId: ws.id, expectedGeneration: 1 },
        token,
      ),
      callCommand(
        'graphql',
        h.app,
        'workspaces.bumpGeneration',
        { workspaceId: ws.id, expectedGeneration: 1 },
        token,
      ),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ status: 409, code: 'conflict' });
    const unconditional = await callCommand(
      'rest',
      h.app,
      'workspaces.bumpGeneration',
      { workspaceId: ws.id },
      token,
    );
    expect(unconditional).toMatchObject({ ok: true, output: { generation: 3 } });
  });

  it('shows a workspace-bound credential only its workspaces', async () => {
    const { tenant } = await tenantWithOwner();
    const bound = await createTestWorkspace(h.db, tenant.id);
    const other = await createTestWorkspace(h.db, tenant.id);
    // No token kind that holds workspaces:read can be workspace-bound today; the use cases still enforce the
    // binding, so a future kind cannot widen it. A principal value is all they take.
    const principal: TenantPrincipal = {
      type: 'tenant',
      tenantId: tenant.id,
      tenantSlug: tenant.slug,
      userId: null,
      role: null,
      via: 'worker',
      sessionId: null,
      tokenId: randomUUID(),
      scopes: ROLE_SCOPES.admin,
      workspaceIds: [bound.id],
      pool: 'default',
    };
    const listed = await new ListWorkspacesUseCase(h.db).execute({ principal, input: { limit: 50 } });
    expect(listed.items.map((w) => w.id)).toEqual([bound.id]);
    await expect(
      new GetWorkspaceUseCase(h.db).execute({ principal, input: { workspaceId: other.id } }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
    await expect(
      new CreateWorkspaceUseCase(h.db).execute({ principal, input: { name: 'nope' } }),
    ).rejects.toBeInstanceOf(ProblemError);
  });
});

describe('tokens', () => {
  it('shows admins every token and anyone else only their own', async () => {
    const { tenant, owner, token: ownerToken } = await tenantWithOwner();
    const approver = await createMember(h.db, tenant, 'approver');
    const approverToken = await mintTestToken(h.db, tenant, approver, { kind: 'user' });
    const ws = await createTestWorkspace(h.db, tenant.id);
    await mintTestToken(h.db, tenant, owner, {
      kind: 'agent',
      scopes: ['catalog:read'],
      workspaceIds: [ws.id],
    });

    const all = await callCommand('rest', h.app, 'tokens.list', {}, ownerToken);
    expect(all.ok && (all.output.items as unknown[]).length).toBe(3);
    const own = await callCommand('graphql', h.app, 'tokens.list', {}, approverToken.secret);
    expect(own).toMatchObject({
      ok: true,
      output: { items: [{ id: approverToken.id, userId: approver.id }] },
    });
  });

  it('revokes idempotently and hides revoked tokens unless asked', async () => {
    const { tenant, owner, token } = await tenantWithOwner();
    const target = await mintTestToken(h.db, tenant, owner, { kind: 'user', scopes: ['tenant:read'] });
    const first = await callCommand('rest', h.app, 'tokens.revoke', { tokenId: target.id }, token);
    const second = await callCommand('graphql', h.app, 'tokens.revoke', { tokenId: target.id }, token);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(first.output.revokedAt).not.toBeNull();
    expect(second.output.revokedAt).toBe(first.output.revokedAt);

    const live = await callCommand('rest', h.app, 'tokens.list', {}, token);
    expect(live.ok && (live.output.items as { id: string }[]).map((t) => t.id)).not.toContain(target.id);
    const withRevoked = await callCommand('rest', h.app, 'tokens.list', { includeRevoked: true }, token);
    expect(withRevoked.ok && (withRevoked.output.items as { id: string }[]).map((t) => t.id)).toContain(
      target.id,
    );
    const events = await h.db.withTenant(tenant.id, (tx) =>
      tx.auditEvent.findMany({ where: { action: 'tokens.revoke' } }),
    );
    expect(events.map((e) => (e.data as { alreadyRevoked: boolean }).alreadyRevoked).sort()).toEqual([
      false,
      true,
    ]);
  });
});
