import { randomBytes, randomUUID } from 'node:crypto';
import { ROLE_SCOPES } from '@gatehouse/commands';
import { appendRevocationEvent, type Database } from '@gatehouse/db';
import type { GraphQLFieldCase, HarnessInject, RouteCase } from '@gatehouse/testing';
import { appendAuditEvent } from './audit/append-audit-event';
import { mintApiToken } from './auth/mint-api-token';
import { mintInvitationSecret } from './tenancy/invitation-secret';
import { PasswordHasher } from './auth/password-hasher';
import { createTenant } from './auth/create-tenant';
import { createUser } from './auth/create-user';

// The world the cross-tenant harness runs in: two tenants, each with an owner, a workspace, a maintainer of
// it, a user token, an audit chain and a pending invitation, plus accounts that belong to no tenant (to invite).
// Tenant B attacks; everything of tenant A is a marker that must never reach B.

const HASHER = new PasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
const SYSTEM = { type: 'system', id: null, tokenKind: null } as const;

export interface TenantWorld {
  readonly tenantId: string;
  readonly slug: string;
  readonly name: string;
  readonly owner: {
    readonly id: string;
    readonly email: string;
    readonly displayName: string;
    readonly password: string;
  };
  readonly maintainer: { readonly id: string; readonly email: string; readonly displayName: string };
  readonly workspace: { readonly id: string; readonly name: string };
  readonly token: { readonly id: string; readonly prefix: string; readonly secret: string };
  readonly headHash: string;
  /** A managed definition source of the tenant (its ciphertext is never opened: B is refused before). */
  readonly definitionSource: { readonly id: string; readonly origin: string };
  /** A trace-context origin in the tenant's HostPolicy (values are not secret, but they are the tenant's). */
  readonly hostPolicyOrigin: string;
  /** An open approval request of the workspace, and a recorded approval (rows only: never decided through B). */
  readonly approvalRequest: { readonly id: string; readonly identityKey: string };
  readonly approval: { readonly id: string };
  /** A pending invitation of the tenant (its secret is what the invited person holds). */
  readonly invitation: { readonly id: string; readonly email: string; readonly secret: string };
  /** A worker token of the tenant (pool `default`) and a lease it holds (a row: never issued through B). */
  readonly worker: { readonly id: string; readonly secret: string };
  readonly lease: { readonly id: string };
  /** An upstream OAuth sign-in of the owner (needs sign-in: no token to seal); B must not sign it out. */
  readonly oauthCredential: { readonly id: string };
  /** The workspace's service credential (needs sign-in); B must neither list nor sign it out. */
  readonly serviceCredential: { readonly id: string };
}

export interface CrossTenantWorld {
  readonly a: TenantWorld;
  readonly b: TenantWorld;
  /** Accounts in no tenant: B may invite them by email (accounts are global; they are no tenant's data). */
  readonly outsiders: readonly [string, string];
}

async function seedTenant(db: Database, label: string): Promise<TenantWorld> {
  const unique = randomUUID().slice(0, 8);
  const slug = `${label}-${unique}`;
  const name = `Tenant ${label} ${unique}`;
  const created = await createTenant(db, { slug, name, actor: SYSTEM });
  if (!created.ok) throw new Error(`fixture: tenant ${label}: ${created.reason}`);
  const tenantId = created.tenant.id;
  const password = `pw-${randomUUID()}`;
  const owner = await createUser(db, HASHER, {
    email: `owner-${slug}@example.test`,
    displayName: `Owner of ${label} ${unique}`,
    password,
    membership: { tenantId, role: 'owner' },
    actor: SYSTEM,
  });
  const maintainer = await createUser(db, HASHER, {
    email: `maintainer-${slug}@example.test`,
    displayName: `Maintainer of ${label} ${unique}`,
    password: `pw-${randomUUID()}`,
    membership: { tenantId, role: 'member' },
    actor: SYSTEM,
  });
  if (!owner.ok || !maintainer.ok) throw new Error(`fixture: users of ${label}`);
  const workspace = { id: randomUUID(), name: `ws-${label}-${unique}` };
  const definitionSource = { id: randomUUID(), origin: `managed:policy-${label}-${unique}` };
  const hostPolicyOrigin = `https://trace-${label}-${unique}.example.com`;
  const approvalRequest = { id: randomUUID(), identityKey: `aid:v1:${randomBytes(32).toString('hex')}` };
  const approval = { id: randomUUID() };
  const invitationSecret = mintInvitationSecret();
  const invitation = {
    id: randomUUID(),
    email: `invitee-${slug}@example.test`,
    secret: invitationSecret.secret,
  };
  const lease = { id: randomUUID() };
  const oauthCredential = { id: randomUUID() };
  const serviceCredential = { id: randomUUID() };
  const { token, secret, link, worker } = await db.withTenant(tenantId, async (tx) => {
    await tx.invitation.create({
      data: {
        id: invitation.id,
        tenantId,
        email: invitation.email,
        role: 'admin',
        secretHash: invitationSecret.secretHash,
        createdById: owner.user.id,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    await tx.workspace.create({ data: { id: workspace.id, tenantId, name: workspace.name } });
    await tx.workspaceMember.create({
      data: { tenantId, workspaceId: workspace.id, userId: maintainer.user.id },
    });
    const minted = await mintApiToken(tx, {
      tenantId,
      createdById: owner.user.id,
      name: `token-${label}-${unique}`,
      grant: { kind: 'user', userId: owner.user.id, scopes: ROLE_SCOPES.owner, workspaceIds: [], pool: null },
      expiresAt: null,
    });
    const appended = await appendAuditEvent(tx, {
      actor: { type: 'user', id: owner.user.id, tokenKind: null },
      action: 'workspaces.create',
      target: { type: 'workspace', id: workspace.id },
      outcome: 'success',
      data: { name: workspace.name },
    });
    await tx.definitionSource.create({
      data: {
        id: definitionSource.id,
        tenantId,
        tier: 'managed',
        origin: definitionSource.origin,
        documentCt: new Uint8Array([1, 2, 3]),
        readability: 'readable',
      },
    });
    await tx.hostPolicy.create({
      data: { tenantId, traceContextOrigins: [hostPolicyOrigin], fourEyes: true },
    });
    const identity = {
      serverName: 'github',
      sourceTier: 'managed' as const,
      sourceOrigin: definitionSource.origin,
      definitionFingerprint: `sha256:${randomBytes(32).toString('hex')}`,
      securityIdentity: `sid:v1:${randomBytes(32).toString('hex')}`,
      projection: { transport: { kind: 'http', url: `https://mcp-${label}-${unique}.example.com/mcp` } },
    };
    await tx.approvalRequest.create({
      data: {
        id: approvalRequest.id,
        tenantId,
        workspaceId: workspace.id,
        identityKey: approvalRequest.identityKey,
        openKey: approvalRequest.identityKey,
        trigger: 'source_written',
        authorUserIds: [owner.user.id],
        ...identity,
      },
    });
    await tx.approval.create({
      data: {
        id: approval.id,
        tenantId,
        workspaceId: workspace.id,
        identityKey: `aid:v1:${randomBytes(32).toString('hex')}`,
        decision: 'approved',
        decidedBy: owner.user.id,
        ...identity,
      },
    });
    const worker = await mintApiToken(tx, {
      tenantId,
      createdById: owner.user.id,
      name: `worker-${label}-${unique}`,
      grant: {
        kind: 'worker',
        userId: null,
        scopes: ['leases:write', 'snapshots:write', 'catalog:refresh', 'catalog:read'],
        workspaceIds: [],
        pool: 'default',
      },
      expiresAt: null,
    });
    await tx.oAuthCredential.create({
      data: {
        id: oauthCredential.id,
        tenantId,
        subjectKind: 'user',
        subject: `user:${owner.user.id}`,
        subjectUserId: owner.user.id,
        serverIdentity: `sid:v1:${randomBytes(32).toString('hex')}`,
        resource: `https://mcp-${label}-${unique}.example.com/mcp`,
        issuer: `https://auth-${label}-${unique}.example.com`,
        status: 'needs_sign_in',
        tokenEndpoint: `https://auth-${label}-${unique}.example.com/token`,
        clientId: `client-${label}-${unique}`,
      },
    });
    await tx.oAuthCredential.create({
      data: {
        id: serviceCredential.id,
        tenantId,
        subjectKind: 'workspace',
        subject: `workspace:${workspace.id}`,
        subjectWorkspaceId: workspace.id,
        serverIdentity: `sid:v1:${randomBytes(32).toString('hex')}`,
        resource: `https://mcp-shared-${label}-${unique}.example.com/mcp`,
        issuer: `https://auth-${label}-${unique}.example.com`,
        status: 'needs_sign_in',
        tokenEndpoint: `https://auth-${label}-${unique}.example.com/token`,
        clientId: `client-${label}-${unique}`,
      },
    });
    await tx.lease.create({
      data: {
        id: lease.id,
        tenantId,
        workspaceId: workspace.id,
        tokenId: worker.token.id,
        tokenKind: 'worker',
        pool: 'default',
        serverName: identity.serverName,
        sourceTier: identity.sourceTier,
        sourceOrigin: identity.sourceOrigin,
        definitionFingerprint: identity.definitionFingerprint,
        securityIdentity: identity.securityIdentity,
        approvalId: approval.id,
        transport: 'http',
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    // A ledger event naming the tenant's ids: revocations.list must never hand it to another tenant.
    await appendRevocationEvent(tx, {
      kind: 'approval_revoked',
      subject: {
        workspaceId: workspace.id,
        approvalId: approval.id,
        tokenIds: [worker.token.id, minted.token.id],
      },
    });
    return { ...minted, link: appended, worker: { id: worker.token.id, secret: worker.secret } };
  });
  return {
    tenantId,
    slug,
    name,
    owner: { ...owner.user, password },
    maintainer: maintainer.user,
    workspace,
    token: { id: token.id, prefix: token.prefix, secret },
    headHash: link.hash,
    definitionSource,
    hostPolicyOrigin,
    approvalRequest,
    approval,
    invitation,
    worker,
    lease,
    oauthCredential,
    serviceCredential,
  };
}

export async function seedCrossTenantWorld(db: Database): Promise<CrossTenantWorld> {
  const a = await seedTenant(db, 'alpha');
  const b = await seedTenant(db, 'bravo');
  const outsiders: string[] = [];
  for (const n of [1, 2]) {
    const email = `outsider-${n}-${randomUUID().slice(0, 8)}@example.test`;
    const result = await createUser(db, HASHER, {
      email,
      displayName: `Outsider ${n}`,
      password: `pw-${randomUUID()}`,
      actor: SYSTEM,
    });
    if (!result.ok) throw new Error('fixture: outsider');
    outsiders.push(email);
  }
  return { a, b, outsiders: [outsiders[0] as string, outsiders[1] as string] };
}

/** Signs in as B's owner through the real login route: the cookie and CSRF header for session cases. */
export async function signIn(inject: HarnessInject, who: TenantWorld): Promise<Record<string, string>> {
  const response = await inject({
    method: 'POST',
    url: '/v1/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email: who.owner.email, password: who.owner.password, tenant: who.slug }),
  });
  if (response.statusCode !== 200)
    throw new Error(
      `fixture: sign-in answered ${response.statusCode} (are the identity routes wired into the app?)`,
    );
  const csrfToken = (JSON.parse(response.body) as { csrfToken: string }).csrfToken;
  const setCookie = response.headers?.['set-cookie'];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  if (typeof first !== 'string') throw new Error('fixture: sign-in set no cookie');
  return { cookie: first.split(';')[0] as string, 'x-csrf-token': csrfToken };
}

/** Everything of A that B must never see. */
export function victimMarkers(a: TenantWorld): string[] {
  return [
    a.tenantId,
    a.slug,
    a.name,
    a.owner.id,
    a.owner.email,
    a.owner.displayName,
    a.maintainer.id,
    a.maintainer.email,
    a.maintainer.displayName,
    a.workspace.id,
    a.workspace.name,
    a.token.id,
    a.token.prefix,
    a.headHash,
    a.definitionSource.id,
    a.definitionSource.origin,
    a.hostPolicyOrigin,
    a.approvalRequest.id,
    a.approvalRequest.identityKey,
    a.approval.id,
    a.invitation.id,
    a.invitation.email,
    a.invitation.secret,
    a.worker.id,
    a.oauthCredential.id,
    a.serviceCredential.id,
    a.worker.secret,
    a.lease.id,
  ];
}

/** One case per REST route the API registers: B's owner token (or session) at A's ids. */
export function routeCases(
  world: CrossTenantWorld,
  sessions: { main: Record<string, string>; logout: Record<string, string> },
  /** A gateway token (a platform service, no tenant): the gateway-only routes run with it. */
  gatewaySecret: string,
): RouteCase[] {
  const { a, b } = world;
  const ws = `/v1/workspaces/${a.workspace.id}`;
  return [
    { route: 'GET /v1/me', url: '/v1/me', expect: 'no_victim_data' },
    { route: 'GET /v1/tenant', url: '/v1/tenant', expect: 'no_victim_data' },
    {
      route: 'PATCH /v1/tenant',
      url: '/v1/tenant',
      payload: { name: 'Bravo renamed' },
      expect: 'no_victim_data',
    },
    { route: 'GET /v1/members', url: '/v1/members', expect: 'no_victim_data' },
    { route: 'GET /v1/invitations', url: '/v1/invitations?status=all', expect: 'no_victim_data' },
    {
      route: 'POST /v1/invitations',
      url: '/v1/invitations',
      payload: { email: world.outsiders[0], role: 'member' },
      expect: 'no_victim_data',
    },
    {
      route: 'DELETE /v1/invitations/:invitationId',
      url: `/v1/invitations/${a.invitation.id}`,
      expect: 'not_found',
    },
    // A's link in the hands of B's owner (not the invited address): nothing to accept.
    {
      route: 'POST /v1/invitations/accept',
      url: '/v1/invitations/accept',
      payload: { secret: a.invitation.secret },
      expect: 'not_found',
    },
    // The link routes take no credential but the secret (whoever holds A's link is its invitee): a secret
    // that is no invitation's reads as not found, whoever asks.
    {
      route: 'POST /v1/auth/invitations/preview',
      url: '/v1/auth/invitations/preview',
      payload: { secret: `ghi_${'B'.repeat(43)}` },
      expect: 'not_found',
    },
    {
      route: 'POST /v1/auth/invitations/accept',
      url: '/v1/auth/invitations/accept',
      payload: { secret: `ghi_${'B'.repeat(43)}`, password: b.owner.password },
      expect: 'not_found',
    },
    {
      route: 'PATCH /v1/members/:userId',
      url: `/v1/members/${a.maintainer.id}`,
      payload: { role: 'admin' },
      expect: 'not_found',
    },
    { route: 'DELETE /v1/members/:userId', url: `/v1/members/${a.maintainer.id}`, expect: 'not_found' },
    { route: 'GET /v1/workspaces', url: '/v1/workspaces', expect: 'no_victim_data' },
    {
      route: 'POST /v1/workspaces',
      url: '/v1/workspaces',
      payload: { name: 'bravo-rest-new' },
      expect: 'no_victim_data',
    },
    { route: 'GET /v1/workspaces/:workspaceId', url: ws, expect: 'not_found' },
    {
      route: 'PATCH /v1/workspaces/:workspaceId',
      url: ws,
      payload: { name: 'hijacked' },
      expect: 'not_found',
    },
    {
      route: 'PUT /v1/workspaces/:workspaceId/trust',
      url: `${ws}/trust`,
      payload: { trusted: true },
      expect: 'not_found',
    },
    {
      route: 'POST /v1/workspaces/:workspaceId/generation',
      url: `${ws}/generation`,
      payload: {},
      expect: 'not_found',
    },
    { route: 'GET /v1/workspaces/:workspaceId/maintainers', url: `${ws}/maintainers`, expect: 'not_found' },
    {
      route: 'POST /v1/workspaces/:workspaceId/maintainers',
      url: `${ws}/maintainers`,
      payload: { userId: b.maintainer.id },
      expect: 'not_found',
    },
    // B's own workspace, A's person: still nobody B can see.
    {
      route: 'POST /v1/workspaces/:workspaceId/maintainers',
      url: `/v1/workspaces/${b.workspace.id}/maintainers`,
      payload: { userId: a.maintainer.id },
      expect: 'not_found',
    },
    {
      route: 'DELETE /v1/workspaces/:workspaceId/maintainers/:userId',
      url: `${ws}/maintainers/${a.maintainer.id}`,
      expect: 'not_found',
    },
    { route: 'GET /v1/tokens', url: '/v1/tokens', expect: 'no_victim_data' },
    {
      route: 'POST /v1/tokens',
      url: '/v1/tokens',
      payload: {
        name: 'bravo-agent',
        kind: 'agent',
        scopes: ['catalog:read'],
        workspaceIds: [a.workspace.id],
      },
      expect: 'not_found',
    },
    { route: 'DELETE /v1/tokens/:tokenId', url: `/v1/tokens/${a.token.id}`, expect: 'not_found' },
    { route: 'GET /v1/audit-events', url: '/v1/audit-events', expect: 'no_victim_data' },
    {
      route: 'GET /v1/audit-events',
      url: `/v1/audit-events?targetId=${a.workspace.id}`,
      expect: 'no_victim_data',
    },
    { route: 'GET /v1/audit-events/head', url: '/v1/audit-events/head', expect: 'no_victim_data' },
    { route: 'GET /v1/audit-events/verify', url: '/v1/audit-events/verify', expect: 'no_victim_data' },
    {
      route: 'GET /v1/audit-events/export',
      url: `/v1/audit-events/export?format=jsonl&targetId=${a.workspace.id}`,
      expect: 'no_victim_data',
    },
    {
      route: 'GET /v1/audit-events/export',
      url: '/v1/audit-events/export?format=csv&targetKind=workspace',
      expect: 'no_victim_data',
    },
    { route: 'GET /v1/definition-sources', url: '/v1/definition-sources', expect: 'no_victim_data' },
    {
      route: 'GET /v1/definition-sources',
      url: `/v1/definition-sources?workspaceId=${a.workspace.id}`,
      expect: 'not_found',
    },
    {
      route: 'GET /v1/definition-sources/:sourceId',
      url: `/v1/definition-sources/${a.definitionSource.id}`,
      expect: 'not_found',
    },
    {
      route: 'PUT /v1/definition-sources',
      url: '/v1/definition-sources',
      payload: { tier: 'project', workspaceId: a.workspace.id, document: { mcpServers: {} } },
      expect: 'not_found',
    },
    {
      route: 'POST /v1/definition-sources/import',
      url: '/v1/definition-sources/import',
      payload: { tier: 'local', workspaceId: a.workspace.id, content: '{"mcpServers":{}}' },
      expect: 'not_found',
    },
    {
      route: 'DELETE /v1/definition-sources/:sourceId',
      url: `/v1/definition-sources/${a.definitionSource.id}`,
      expect: 'not_found',
    },
    {
      route: 'POST /v1/definition-sources/preview',
      url: '/v1/definition-sources/preview',
      payload: { tier: 'project', workspaceId: a.workspace.id, document: { mcpServers: {} } },
      expect: 'not_found',
    },
    {
      route: 'GET /v1/definition-sources/:sourceId/versions',
      url: `/v1/definition-sources/${a.definitionSource.id}/versions`,
      expect: 'not_found',
    },
    {
      route: 'GET /v1/definition-sources/:sourceId/versions/:version',
      url: `/v1/definition-sources/${a.definitionSource.id}/versions/1`,
      expect: 'not_found',
    },
    {
      route: 'GET /v1/definition-variables',
      url: `/v1/definition-variables?scope=workspace&workspaceId=${a.workspace.id}`,
      expect: 'not_found',
    },
    {
      route: 'PUT /v1/definition-variables/:name',
      url: '/v1/definition-variables/API_TOKEN',
      payload: { scope: 'workspace', workspaceId: a.workspace.id, value: 'bravo-value' },
      expect: 'not_found',
    },
    {
      route: 'DELETE /v1/definition-variables/:name',
      url: `/v1/definition-variables/API_TOKEN?scope=workspace&workspaceId=${a.workspace.id}`,
      expect: 'not_found',
    },
    {
      route: 'PUT /v1/workspaces/:workspaceId/disabled-servers/:serverName',
      url: `${ws}/disabled-servers/github`,
      payload: { scope: 'workspace' },
      expect: 'not_found',
    },
    {
      route: 'DELETE /v1/workspaces/:workspaceId/disabled-servers/:serverName',
      url: `${ws}/disabled-servers/github?scope=user`,
      expect: 'not_found',
    },
    {
      route: 'GET /v1/workspaces/:workspaceId/effective-definitions',
      url: `${ws}/effective-definitions?view=workspace`,
      expect: 'not_found',
    },
    { route: 'GET /v1/host-policy', url: '/v1/host-policy', expect: 'no_victim_data' },
    {
      route: 'GET /v1/approval-requests',
      url: '/v1/approval-requests?status=all',
      expect: 'no_victim_data',
    },
    {
      route: 'GET /v1/approval-requests',
      url: `/v1/approval-requests?workspaceId=${a.workspace.id}`,
      expect: 'not_found',
    },
    {
      route: 'GET /v1/approval-requests/:requestId',
      url: `/v1/approval-requests/${a.approvalRequest.id}`,
      expect: 'not_found',
    },
    {
      route: 'POST /v1/workspaces/:workspaceId/approval-requests',
      url: `${ws}/approval-requests`,
      payload: { serverName: 'github' },
      expect: 'not_found',
    },
    {
      route: 'POST /v1/approval-requests/:requestId/decision',
      url: `/v1/approval-requests/${a.approvalRequest.id}/decision`,
      payload: {
        decision: 'approve',
        seenFingerprint: 'sha256:seen',
        seenIdentityKey: a.approvalRequest.identityKey,
      },
      expect: 'not_found',
    },
    { route: 'GET /v1/approvals', url: '/v1/approvals', expect: 'no_victim_data' },
    {
      route: 'GET /v1/approvals',
      url: `/v1/approvals?workspaceId=${a.workspace.id}`,
      expect: 'not_found',
    },
    {
      route: 'POST /v1/approvals/:approvalId/revoke',
      url: `/v1/approvals/${a.approval.id}/revoke`,
      payload: { reason: 'cross-tenant probe' },
      expect: 'not_found',
    },
    {
      route: 'GET /v1/workspaces/:workspaceId/admission-check',
      url: `${ws}/admission-check?serverName=github`,
      expect: 'not_found',
    },
    // B's own workspace, A's person as the principal: still nobody B can see.
    {
      route: 'GET /v1/workspaces/:workspaceId/admission-check',
      url: `/v1/workspaces/${b.workspace.id}/admission-check?serverName=github&principalUserId=${a.maintainer.id}`,
      expect: 'not_found',
    },
    // The gateway introspects a caller's token for the workspace the caller asked for: B's token at A's
    // workspace is the 404 of a workspace that is not there, never A's data.
    {
      route: 'POST /v1/tokens/introspect',
      url: '/v1/tokens/introspect',
      payload: { token: b.token.secret, workspaceId: a.workspace.id },
      credentials: { authorization: `Bearer ${gatewaySecret}` },
      expect: 'not_found',
    },
    // Leases take worker and gateway tokens only: B's worker at A's workspace and A's lease.
    {
      route: 'POST /v1/leases',
      url: '/v1/leases',
      payload: { workspaceId: a.workspace.id, serverName: 'github' },
      credentials: { authorization: `Bearer ${b.worker.secret}` },
      expect: 'not_found',
    },
    {
      route: 'POST /v1/leases/:leaseId/renew',
      url: `/v1/leases/${a.lease.id}/renew`,
      payload: {},
      credentials: { authorization: `Bearer ${b.worker.secret}` },
      expect: 'not_found',
    },
    {
      route: 'POST /v1/leases/:leaseId/release',
      url: `/v1/leases/${a.lease.id}/release`,
      payload: {},
      credentials: { authorization: `Bearer ${b.worker.secret}` },
      expect: 'not_found',
    },
    {
      route: 'POST /v1/leases/:leaseId/snapshot',
      url: `/v1/leases/${a.lease.id}/snapshot`,
      payload: { document: { v: 1, complete: true, stale: false, servers: [], diagnostics: [] } },
      credentials: { authorization: `Bearer ${b.worker.secret}` },
      expect: 'not_found',
    },
    {
      route: 'POST /v1/leases/:leaseId/discovery-failure',
      url: `/v1/leases/${a.lease.id}/discovery-failure`,
      payload: { failureClass: 'protocol', reason: 'protocol_version_refused' },
      credentials: { authorization: `Bearer ${b.worker.secret}` },
      expect: 'not_found',
    },
    // The catalog lease: B's owner and B's worker at A's workspace, and B's worker naming A's person.
    { route: 'GET /v1/workspaces/:workspaceId/catalog', url: `${ws}/catalog`, expect: 'not_found' },
    {
      route: 'GET /v1/workspaces/:workspaceId/catalog',
      url: `${ws}/catalog?wait=1`,
      credentials: { authorization: `Bearer ${b.worker.secret}` },
      expect: 'not_found',
    },
    {
      route: 'GET /v1/workspaces/:workspaceId/catalog',
      url: `/v1/workspaces/${b.workspace.id}/catalog?principal=${a.maintainer.id}`,
      credentials: { authorization: `Bearer ${b.worker.secret}` },
      expect: 'not_found',
    },
    {
      route: 'POST /v1/leases/:leaseId/probe',
      url: `/v1/leases/${a.lease.id}/probe`,
      payload: {
        state: 'ready',
        failureClass: null,
        reason: null,
        protocolVersion: null,
        serverVersion: null,
      },
      credentials: { authorization: `Bearer ${b.worker.secret}` },
      expect: 'not_found',
    },
    // servers.status: B's owner reads the connection state and lease holders of a server of A's workspace.
    {
      route: 'GET /v1/workspaces/:workspaceId/servers/:serverName/status',
      url: `${ws}/servers/github/status`,
      expect: 'not_found',
    },
    // gateway.activity: B's owner reads the gateway's live numbers of A's workspace (decision 0118).
    {
      route: 'GET /v1/workspaces/:workspaceId/gateway-activity',
      url: `${ws}/gateway-activity`,
      expect: 'not_found',
    },
    // catalog.refresh: B's owner at A's workspace, and B's worker reporting a list_changed on A's lease.
    {
      route: 'POST /v1/workspaces/:workspaceId/catalog/refresh',
      url: `${ws}/catalog/refresh`,
      payload: { serverName: 'github' },
      expect: 'not_found',
    },
    {
      route: 'POST /v1/workspaces/:workspaceId/catalog/refresh',
      url: `${ws}/catalog/refresh`,
      payload: { serverName: 'github', leaseId: a.lease.id },
      credentials: { authorization: `Bearer ${b.worker.secret}` },
      expect: 'not_found',
    },
    // Upstream OAuth: B's owner signs in to a server of A's workspace, and lists only B's own sign-ins.
    {
      route: 'POST /v1/workspaces/:workspaceId/oauth/sign-in',
      url: `${ws}/oauth/sign-in`,
      payload: { serverName: 'github' },
      expect: 'not_found',
    },
    { route: 'GET /v1/oauth/credentials', url: '/v1/oauth/credentials', expect: 'no_victim_data' },
    // ... nor, naming A's workspace, A's workspace service credentials (decision 0102).
    {
      route: 'GET /v1/oauth/credentials',
      url: `/v1/oauth/credentials?workspaceId=${a.workspace.id}`,
      expect: 'not_found',
    },
    // A redirect no sign-in of B's waits for (pasted or on the callback), and A's owner's credential.
    {
      route: 'POST /v1/oauth/sign-in/complete',
      url: '/v1/oauth/sign-in/complete',
      payload: { redirectUrl: `http://localhost:3000/v1/oauth/callback?state=${'s'.repeat(43)}&code=c` },
      expect: 'not_found',
    },
    {
      route: 'GET /v1/oauth/callback',
      url: `/v1/oauth/callback?state=${'s'.repeat(43)}&code=c`,
      expect: 'not_found',
    },
    {
      route: 'POST /v1/oauth/credentials/:credentialId/sign-out',
      url: `/v1/oauth/credentials/${a.oauthCredential.id}/sign-out`,
      payload: {},
      expect: 'not_found',
    },
    // B's owner makes A's owner's credential the service credential of A's workspace (or of B's own).
    {
      route: 'POST /v1/workspaces/:workspaceId/oauth/service-credential',
      url: `${ws}/oauth/service-credential`,
      payload: { credentialId: a.oauthCredential.id },
      expect: 'not_found',
    },
    // B's owner lists A's workspace's service credentials and signs one out, at A's workspace or B's own.
    {
      route: 'GET /v1/workspaces/:workspaceId/oauth/service-credentials',
      url: `${ws}/oauth/service-credentials`,
      expect: 'not_found',
    },
    {
      route: 'POST /v1/workspaces/:workspaceId/oauth/service-credentials/:credentialId/sign-out',
      url: `${ws}/oauth/service-credentials/${a.serviceCredential.id}/sign-out`,
      payload: {},
      expect: 'not_found',
    },
    {
      route: 'POST /v1/workspaces/:workspaceId/oauth/service-credentials/:credentialId/sign-out',
      url: `/v1/workspaces/${b.workspace.id}/oauth/service-credentials/${a.serviceCredential.id}/sign-out`,
      payload: {},
      expect: 'not_found',
    },
    // The revocation ledger: B's owner reads B's stream from the start, never an event of A's.
    { route: 'GET /v1/revocations', url: '/v1/revocations?since=0&limit=1000', expect: 'no_victim_data' },
    {
      route: 'PUT /v1/host-policy',
      url: '/v1/host-policy',
      payload: {
        stdioCommands: [],
        headerHelpers: [],
        privateCidrs: [],
        traceContextOrigins: [b.hostPolicyOrigin],
        fourEyes: false,
      },
      expect: 'no_victim_data',
    },
    {
      route: 'GET /v1/auth/session',
      url: '/v1/auth/session',
      credentials: sessions.main,
      expect: 'no_victim_data',
    },
    {
      route: 'POST /v1/auth/logout',
      url: '/v1/auth/logout',
      payload: {},
      credentials: sessions.logout,
      expect: 'no_victim_data',
    },
  ];
}

/** One case per GraphQL field: lists select their data (to see a leak); refusals select only __typename. */
export function graphqlCases(world: CrossTenantWorld, gatewaySecret: string): GraphQLFieldCase[] {
  const { a, b } = world;
  const wsInput = `workspaceId: "${a.workspace.id}"`;
  const bWorker = { authorization: `Bearer ${b.worker.secret}` };
  const notFound = (
    field: string,
    call: string,
    kind: 'query' | 'mutation' = 'mutation',
  ): GraphQLFieldCase => ({
    field: `${kind === 'query' ? 'Query' : 'Mutation'}.${field}`,
    query: `${kind} { ${call} { __typename } }`,
    expect: 'not_found',
  });
  const visible = (
    field: string,
    call: string,
    selection: string,
    kind: 'query' | 'mutation' = 'query',
  ): GraphQLFieldCase => ({
    field: `${kind === 'query' ? 'Query' : 'Mutation'}.${field}`,
    query: `${kind} { ${call} ${selection} }`,
    expect: 'no_victim_data',
  });
  return [
    visible('me', 'me', '{ tenantId tenantSlug userId email role via scopes }'),
    visible('tenant', 'tenant', '{ id slug name createdAt }'),
    visible(
      'renameTenant',
      'renameTenant(input: { name: "Bravo renamed again" })',
      '{ id slug name }',
      'mutation',
    ),
    visible('members', 'members', '{ items { userId email displayName role } nextCursor }'),
    visible(
      'invitations',
      'invitations(input: { status: "all" })',
      '{ items { id email role status } nextCursor }',
    ),
    visible(
      'createInvitation',
      `createInvitation(input: { email: "${world.outsiders[1]}", role: "member" })`,
      '{ invitation { id email role status } }',
      'mutation',
    ),
    notFound('revokeInvitation', `revokeInvitation(input: { invitationId: "${a.invitation.id}" })`),
    notFound('acceptInvitation', `acceptInvitation(input: { secret: "${a.invitation.secret}" })`),
    notFound('changeMemberRole', `changeMemberRole(input: { userId: "${a.maintainer.id}", role: "admin" })`),
    notFound('removeMember', `removeMember(input: { userId: "${a.maintainer.id}" })`),
    visible('workspaces', 'workspaces', '{ items { id name repositoryIdentity } nextCursor }'),
    notFound('workspace', `workspace(input: { ${wsInput} })`, 'query'),
    visible(
      'createWorkspace',
      'createWorkspace(input: { name: "bravo-graphql-new" })',
      '{ id name }',
      'mutation',
    ),
    notFound('renameWorkspace', `renameWorkspace(input: { ${wsInput}, name: "hijacked" })`),
    notFound('setWorkspaceTrust', `setWorkspaceTrust(input: { ${wsInput}, trusted: true })`),
    notFound('bumpWorkspaceGeneration', `bumpWorkspaceGeneration(input: { ${wsInput} })`),
    notFound('workspaceMaintainers', `workspaceMaintainers(input: { ${wsInput} })`, 'query'),
    notFound(
      'addWorkspaceMaintainer',
      `addWorkspaceMaintainer(input: { workspaceId: "${b.workspace.id}", userId: "${a.maintainer.id}" })`,
    ),
    notFound(
      'removeWorkspaceMaintainer',
      `removeWorkspaceMaintainer(input: { ${wsInput}, userId: "${a.maintainer.id}" })`,
    ),
    visible('tokens', 'tokens', '{ items { id name prefix userId workspaceIds } nextCursor }'),
    notFound(
      'createToken',
      `createToken(input: { name: "bravo-agent-gql", kind: "agent", scopes: ["catalog:read"], workspaceIds: ["${a.workspace.id}"] })`,
    ),
    notFound('revokeToken', `revokeToken(input: { tokenId: "${a.token.id}" })`),
    visible(
      'auditEvents',
      `auditEvents(input: { targetId: "${a.workspace.id}" })`,
      '{ items { id seq actorId targetId data hash } nextCursor }',
    ),
    visible('auditHead', 'auditHead', '{ tenantId seq hash at }'),
    visible('definitionSources', 'definitionSources', '{ items { id tier origin workspaceId ownerUserId } }'),
    notFound(
      'definitionSource',
      `definitionSource(input: { sourceId: "${a.definitionSource.id}" })`,
      'query',
    ),
    notFound(
      'putDefinitionSource',
      `putDefinitionSource(input: { tier: "project", ${wsInput}, document: { mcpServers: {} } })`,
    ),
    notFound(
      'importDefinitionSource',
      `importDefinitionSource(input: { tier: "local", ${wsInput}, content: "{}" })`,
    ),
    notFound(
      'deleteDefinitionSource',
      `deleteDefinitionSource(input: { sourceId: "${a.definitionSource.id}" })`,
    ),
    notFound(
      'previewDefinitionSource',
      `previewDefinitionSource(input: { tier: "project", ${wsInput}, document: { mcpServers: {} } })`,
      'query',
    ),
    notFound(
      'definitionSourceVersions',
      `definitionSourceVersions(input: { sourceId: "${a.definitionSource.id}" })`,
      'query',
    ),
    notFound(
      'definitionSourceVersion',
      `definitionSourceVersion(input: { sourceId: "${a.definitionSource.id}", version: 1 })`,
      'query',
    ),
    notFound(
      'definitionVariables',
      `definitionVariables(input: { scope: "workspace", ${wsInput} })`,
      'query',
    ),
    notFound(
      'setDefinitionVariable',
      `setDefinitionVariable(input: { scope: "workspace", ${wsInput}, name: "API_TOKEN", value: "x" })`,
    ),
    notFound(
      'unsetDefinitionVariable',
      `unsetDefinitionVariable(input: { scope: "workspace", ${wsInput}, name: "API_TOKEN" })`,
    ),
    notFound(
      'setDisableOverlay',
      `setDisableOverlay(input: { ${wsInput}, serverName: "github", scope: "user" })`,
    ),
    notFound(
      'clearDisableOverlay',
      `clearDisableOverlay(input: { ${wsInput}, serverName: "github", scope: "workspace" })`,
    ),
    notFound('effectiveDefinitions', `effectiveDefinitions(input: { ${wsInput} })`, 'query'),
    visible(
      'approvalRequests',
      'approvalRequests(input: { status: "all" })',
      '{ items { id workspaceId identity { key serverName source { origin } } projection authorUserIds } nextCursor }',
    ),
    notFound('approvalRequest', `approvalRequest(input: { requestId: "${a.approvalRequest.id}" })`, 'query'),
    notFound('openApprovalRequest', `openApprovalRequest(input: { ${wsInput}, serverName: "github" })`),
    notFound(
      'decideApprovalRequest',
      `decideApprovalRequest(input: { requestId: "${a.approvalRequest.id}", decision: "approve", seenFingerprint: "sha256:seen", seenIdentityKey: "${a.approvalRequest.identityKey}" })`,
    ),
    visible(
      'approvals',
      'approvals(input: { state: "all" })',
      '{ items { id workspaceId requestId decidedBy identity { key source { origin } } } nextCursor }',
    ),
    notFound(
      'revokeApproval',
      `revokeApproval(input: { approvalId: "${a.approval.id}", reason: "cross-tenant probe" })`,
    ),
    notFound('admissionCheck', `admissionCheck(input: { ${wsInput}, serverName: "github" })`, 'query'),
    {
      ...notFound(
        'introspectToken',
        `introspectToken(input: { token: "${b.token.secret}", ${wsInput} })`,
        'query',
      ),
      credentials: { authorization: `Bearer ${gatewaySecret}` },
    },
    {
      ...notFound('issueLease', `issueLease(input: { ${wsInput}, serverName: "github" })`),
      credentials: bWorker,
    },
    { ...notFound('renewLease', `renewLease(input: { leaseId: "${a.lease.id}" })`), credentials: bWorker },
    {
      ...notFound('releaseLease', `releaseLease(input: { leaseId: "${a.lease.id}" })`),
      credentials: bWorker,
    },
    {
      ...notFound(
        'submitCatalogSnapshot',
        `submitCatalogSnapshot(input: { leaseId: "${a.lease.id}", document: { v: 1, complete: true, stale: false, servers: [], diagnostics: [] } })`,
      ),
      credentials: bWorker,
    },
    {
      ...notFound(
        'reportDiscoveryFailure',
        `reportDiscoveryFailure(input: { leaseId: "${a.lease.id}", failureClass: "protocol", reason: "protocol_version_refused" })`,
      ),
      credentials: bWorker,
    },
    notFound('workspaceCatalog', `workspaceCatalog(input: { ${wsInput} })`, 'query'),
    {
      ...notFound('workspaceCatalog', `workspaceCatalog(input: { ${wsInput} })`, 'query'),
      credentials: bWorker,
    },
    {
      ...notFound(
        'submitProbe',
        `submitProbe(input: { leaseId: "${a.lease.id}", state: "ready", failureClass: null, reason: null, protocolVersion: null, serverVersion: null })`,
      ),
      credentials: bWorker,
    },
    notFound('serverStatus', `serverStatus(input: { ${wsInput}, serverName: "github" })`, 'query'),
    notFound('gatewayActivity', `gatewayActivity(input: { ${wsInput} })`, 'query'),
    notFound('refreshCatalog', `refreshCatalog(input: { ${wsInput}, serverName: "github" })`),
    {
      ...notFound(
        'refreshCatalog',
        `refreshCatalog(input: { ${wsInput}, serverName: "github", leaseId: "${a.lease.id}" })`,
      ),
      credentials: bWorker,
    },
    notFound('startOAuthSignIn', `startOAuthSignIn(input: { ${wsInput}, serverName: "github" })`),
    notFound('oauthCredentials', `oauthCredentials(input: { ${wsInput} })`, 'query'),
    visible(
      'oauthCredentials',
      'oauthCredentials(input: {})',
      '{ items { id issuer resource securityIdentity } nextCursor }',
      'query',
    ),
    notFound(
      'completeOAuthSignIn',
      `completeOAuthSignIn(input: { redirectUrl: "http://localhost:3000/v1/oauth/callback?state=${'s'.repeat(43)}&code=c" })`,
    ),
    notFound('signOutOAuth', `signOutOAuth(input: { credentialId: "${a.oauthCredential.id}" })`),
    notFound(
      'chooseOAuthServiceCredential',
      `chooseOAuthServiceCredential(input: { ${wsInput}, credentialId: "${a.oauthCredential.id}" })`,
    ),
    notFound('oauthServiceCredentials', `oauthServiceCredentials(input: { ${wsInput} })`, 'query'),
    notFound(
      'signOutOAuthServiceCredential',
      `signOutOAuthServiceCredential(input: { ${wsInput}, credentialId: "${a.serviceCredential.id}" })`,
    ),
    visible(
      'revocations',
      'revocations(input: { since: 0, limit: 1000 })',
      '{ stream events next head hasMore }',
    ),
    visible(
      'hostPolicy',
      'hostPolicy',
      '{ policy { stdioCommands headerHelpers privateCidrs traceContextOrigins fourEyes updatedAt } pools { pool stdio commandCeiling privateRangesTenantsMayOptInto } }',
    ),
    visible(
      'putHostPolicy',
      `putHostPolicy(input: { stdioCommands: [], headerHelpers: [], privateCidrs: [], traceContextOrigins: ["${b.hostPolicyOrigin}"], fourEyes: true })`,
      '{ policy { traceContextOrigins fourEyes } pools { pool } }',
      'mutation',
    ),
    visible(
      'verifyAuditChain',
      'verifyAuditChain',
      '{ ok checkedRows headSeq headHash firstBadSeq problem }',
    ),
  ];
}
