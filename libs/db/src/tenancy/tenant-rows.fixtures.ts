import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../database';

// Rows of every tenant table for one tenant, written through the app role as the app would. Shared by the
// row-level-security and lookup integration tests of this lib (they cannot use @gatehouse/testing's fixtures
// without a dependency cycle testing -> db -> testing).

export interface TenantRows {
  tenantId: string;
  slug: string;
  userId: string;
  email: string;
  membershipId: string;
  sessionId: string;
  sessionSecretHash: Uint8Array<ArrayBuffer>;
  tokenId: string;
  tokenSecretHash: Uint8Array<ArrayBuffer>;
  workspaceId: string;
  approvalRequestId: string;
  approvalId: string;
}

export async function seedTenantRows(db: Database, label: string): Promise<TenantRows> {
  const tenantId = randomUUID();
  const userId = randomUUID();
  const rows: TenantRows = {
    tenantId,
    slug: `${label}-${tenantId.slice(0, 8)}`,
    userId,
    email: `${label}-${userId.slice(0, 8)}@example.test`,
    membershipId: randomUUID(),
    sessionId: randomUUID(),
    sessionSecretHash: new Uint8Array(randomBytes(32)),
    tokenId: randomUUID(),
    tokenSecretHash: new Uint8Array(randomBytes(32)),
    workspaceId: randomUUID(),
    approvalRequestId: randomUUID(),
    approvalId: randomUUID(),
  };
  await db.withTenantAndUser(tenantId, userId, async (tx) => {
    await tx.tenant.create({ data: { id: tenantId, slug: rows.slug, name: label } });
    await tx.user.create({
      data: { id: userId, email: rows.email, displayName: label, passwordHash: 'hash' },
    });
    await tx.membership.create({ data: { id: rows.membershipId, tenantId, userId, role: 'owner' } });
    await tx.session.create({
      data: {
        id: rows.sessionId,
        tenantId,
        userId,
        secretHash: rows.sessionSecretHash,
        csrfHash: new Uint8Array(randomBytes(32)),
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    await tx.apiToken.create({
      data: {
        id: rows.tokenId,
        tenantId,
        userId,
        kind: 'user',
        name: `${label} token`,
        scopes: ['definitions:read'],
        workspaceIds: [],
        secretHash: rows.tokenSecretHash,
        prefix: 'gh_u_abc',
      },
    });
    await tx.workspace.create({ data: { id: rows.workspaceId, tenantId, name: `${label}-ws` } });
    await tx.workspaceMember.create({ data: { tenantId, workspaceId: rows.workspaceId, userId } });
    await tx.auditEvent.create({
      data: {
        id: randomUUID(),
        tenantId,
        seq: 1n,
        actorType: 'user',
        actorId: userId,
        action: 'tenant.created',
        targetType: 'tenant',
        targetId: tenantId,
        outcome: 'success',
        prevHash: Buffer.alloc(32),
        hash: new Uint8Array(randomBytes(32)),
      },
    });
    await tx.auditHead.create({ data: { tenantId, seq: 1n, hash: new Uint8Array(randomBytes(32)) } });
    // Ciphertext columns hold random bytes here: these tests are about row visibility, not encryption.
    const source = await tx.definitionSource.create({
      data: {
        tenantId,
        tier: 'managed',
        origin: `managed:${label}-policy`,
        documentCt: new Uint8Array(randomBytes(48)),
        readability: 'readable',
      },
    });
    await tx.definitionSourceVersion.create({
      data: {
        id: randomUUID(),
        tenantId,
        sourceId: source.id,
        version: 1,
        documentCt: new Uint8Array(randomBytes(48)),
        entries: 0,
        problems: 0,
      },
    });
    await tx.definitionVariable.create({
      data: {
        tenantId,
        scope: 'tenant',
        holder: 'tenant',
        name: 'REGION',
        valueCt: new Uint8Array(randomBytes(48)),
      },
    });
    await tx.disableOverlay.create({
      data: {
        tenantId,
        scope: 'workspace',
        holder: 'workspace',
        workspaceId: rows.workspaceId,
        serverName: 'github',
      },
    });
    await tx.hostPolicy.create({
      data: { tenantId, privateCidrs: ['10.1.0.0/16'], stdioCommands: [['npx', '-y']], fourEyes: true },
    });
    // A decided request and the approval it led to (identity fields are shaped, not computed: visibility only).
    const identity = {
      tenantId,
      workspaceId: rows.workspaceId,
      identityKey: `aid:v1:${randomBytes(32).toString('hex')}`,
      serverName: 'github',
      sourceTier: 'project' as const,
      sourceOrigin: `project:${rows.workspaceId}`,
      definitionFingerprint: 'fp',
      securityIdentity: 'sid',
      repositoryIdentity: `workspace:${rows.workspaceId}`,
      workspaceGeneration: 1,
      projection: { transport: { kind: 'http' } },
    };
    await tx.approvalRequest.create({
      data: {
        ...identity,
        id: rows.approvalRequestId,
        openKey: null,
        trigger: 'source_written',
        authorUserIds: [userId],
        status: 'decided',
        closedAt: new Date(),
        closedBy: userId,
      },
    });
    await tx.approval.create({
      data: {
        ...identity,
        id: rows.approvalId,
        requestId: rows.approvalRequestId,
        decision: 'approved',
        decidedBy: userId,
      },
    });
    await tx.definitionEntryAuthor.create({
      data: { tenantId, origin: `project:${rows.workspaceId}`, entryName: 'github', userId },
    });
    await tx.invitation.create({
      data: {
        tenantId,
        email: `invitee-${label}@example.test`,
        role: 'member',
        secretHash: new Uint8Array(randomBytes(32)),
        createdById: userId,
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    await tx.revocationEvent.create({
      data: { tenantId, kind: 'host_policy_changed', subject: {} },
    });
    await tx.lease.create({
      data: {
        id: randomUUID(),
        tenantId,
        workspaceId: rows.workspaceId,
        tokenId: rows.tokenId,
        tokenKind: 'worker',
        pool: 'default',
        serverName: 'github',
        sourceTier: 'project',
        sourceOrigin: `project:${rows.workspaceId}`,
        definitionFingerprint: 'fp',
        securityIdentity: 'sid',
        approvalId: rows.approvalId,
        transport: 'http',
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    await tx.catalogSnapshot.create({
      data: {
        id: randomUUID(),
        tenantId,
        workspaceId: rows.workspaceId,
        serverName: 'github',
        definitionFingerprint: 'fp',
        principalKey: 'workspace',
        leaseId: randomUUID(),
        protocolVersion: '2025-06-18',
        serverVersion: '1.0.0',
        document: { v: 1 },
        complete: true,
        stale: false,
        fetchedAt: new Date(),
      },
    });
    await tx.serverProbe.create({
      data: {
        id: randomUUID(),
        tenantId,
        workspaceId: rows.workspaceId,
        serverName: 'github',
        definitionFingerprint: 'fp',
        principalKey: 'workspace',
        leaseId: randomUUID(),
        state: 'ready',
        probedAt: new Date(),
      },
    });
    await tx.catalogDiscoveryFailure.create({
      data: {
        id: randomUUID(),
        tenantId,
        workspaceId: rows.workspaceId,
        serverName: 'github',
        definitionFingerprint: 'fp',
        principalKey: 'workspace',
        leaseId: randomUUID(),
        failureClass: 'protocol',
        reason: 'protocol_version_refused',
        failedAt: new Date(),
      },
    });
    await tx.oAuthCredential.create({
      data: {
        id: randomUUID(),
        tenantId,
        subjectKind: 'user',
        subject: `user:${userId}`,
        subjectUserId: userId,
        serverIdentity: 'sid',
        resource: 'https://mcp.example.test/mcp',
        issuer: 'https://issuer.example.test',
        status: 'active',
        accessTokenCt: new Uint8Array(randomBytes(32)),
        tokenEndpoint: 'https://issuer.example.test/token',
        clientId: 'client',
      },
    });
    await tx.oAuthClient.create({
      data: {
        id: randomUUID(),
        tenantId,
        issuer: 'https://issuer.example.test',
        kind: 'dynamic',
        clientId: 'client',
        tokenEndpointAuthMethod: 'none',
      },
    });
  });
  return rows;
}
