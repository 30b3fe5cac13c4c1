import { createHash, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { RevocationKind } from '@gatehouse/contracts';
import {
  createDatabase,
  insertGatewayToken,
  revokeGatewayToken,
  type Database,
  type TenantTx,
} from '@gatehouse/db';
import {
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import { mintTokenSecret } from '../auth/api-token-format';
import { mintApiToken } from '../auth/mint-api-token';
import { createMember } from '../commands/testing/surfaces-harness';
import { ApprovalExpirySweep } from './approval-expiry-sweep';
import { appendLeaseChange, type LeaseChangeSubject } from './lease-change-event';

// Ledger events end the leases they concern, in their own transaction (decision 0071), and approval expiries get
// their event exactly once from the sweep (decision 0072). Real Postgres, the app role under row-level security;
// leases and approvals seeded as rows (what issuing writes), so each subject shape is checked lease by lease.

jest.setTimeout(60_000);

let testDb: TestDatabase;
let db: Database;
let acme: TestTenant;
let globex: TestTenant;
let admin: TestUser;
let member: TestUser;
let globexOwner: TestUser;
let wsA: string;
let wsB: string;
let globexWs: string;
const workerTokenIds: { acme: string; acme2: string; globex: string } = { acme: '', acme2: '', globex: '' };
let gatewayTokenId: string;

async function workerToken(tenant: TestTenant, creator: TestUser): Promise<string> {
  return db.withTenant(tenant.id, async (tx) => {
    const minted = await mintApiToken(tx, {
      tenantId: tenant.id,
      createdById: creator.id,
      name: 'worker',
      grant: { kind: 'worker', userId: null, scopes: ['leases:write'], workspaceIds: [], pool: 'local' },
      expiresAt: null,
    });
    return minted.token.id;
  });
}

interface ApprovalSeed {
  readonly workspaceId: string;
  readonly serverName: string;
  readonly principalUserId?: string | null;
  readonly expiresAt?: Date | null;
}

async function seedApproval(tx: TenantTx, tenantId: string, decidedBy: string, seed: ApprovalSeed) {
  return tx.approval.create({
    data: {
      tenantId,
      workspaceId: seed.workspaceId,
      identityKey: `aid:v1:${createHash('sha256').update(seed.serverName).digest('hex')}`,
      serverName: seed.serverName,
      sourceTier: 'managed',
      sourceOrigin: 'managed:seed',
      definitionFingerprint: `sha256:${seed.serverName}`,
      securityIdentity: `sec-${seed.serverName}`,
      principalUserId: seed.principalUserId ?? null,
      projection: {},
      decision: 'approved',
      decidedBy,
      // Decided before it expires (the table's check); an expired one was decided two hours ago.
      decidedAt: new Date(Date.now() - 7_200_000),
      expiresAt: seed.expiresAt ?? null,
    },
  });
}

interface LeaseSeed {
  readonly workspaceId: string;
  readonly serverName: string;
  readonly approvalId: string;
  readonly tokenId: string;
  readonly tokenKind?: 'worker' | 'gateway';
  readonly principalUserId?: string | null;
  readonly released?: boolean;
}

async function seedLease(tx: TenantTx, tenantId: string, seed: LeaseSeed): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await tx.lease.create({
    data: {
      id,
      tenantId,
      workspaceId: seed.workspaceId,
      tokenId: seed.tokenId,
      tokenKind: seed.tokenKind ?? 'worker',
      pool: 'local',
      principalUserId: seed.principalUserId ?? null,
      serverName: seed.serverName,
      sourceTier: 'managed',
      sourceOrigin: 'managed:seed',
      definitionFingerprint: `sha256:${seed.serverName}`,
      securityIdentity: `sec-${seed.serverName}`,
      approvalId: seed.approvalId,
      transport: 'http',
      issuedAt: new Date(now - 1_000),
      expiresAt: new Date(now + 300_000),
      releasedAt: seed.released === true ? new Date(now) : null,
    },
  });
  return id;
}

/** A fresh set of leases in acme (two workspaces, two servers, two tokens, a principal) and one in globex. */
async function seedWorld() {
  const acmeLeases = await db.withTenant(acme.id, async (tx) => {
    const a1 = await seedApproval(tx, acme.id, admin.id, { workspaceId: wsA, serverName: 'alpha' });
    const a2 = await seedApproval(tx, acme.id, admin.id, { workspaceId: wsA, serverName: 'beta' });
    const b1 = await seedApproval(tx, acme.id, admin.id, { workspaceId: wsB, serverName: 'alpha' });
    const u1 = await seedApproval(tx, acme.id, admin.id, {
      workspaceId: wsA,
      serverName: 'alpha',
      principalUserId: member.id,
    });
    const base = { tokenId: workerTokenIds.acme };
    return {
      approvals: { a1: a1.id, a2: a2.id, b1: b1.id, u1: u1.id },
      alphaA: await seedLease(tx, acme.id, {
        ...base,
        workspaceId: wsA,
        serverName: 'alpha',
        approvalId: a1.id,
      }),
      betaA: await seedLease(tx, acme.id, {
        ...base,
        workspaceId: wsA,
        serverName: 'beta',
        approvalId: a2.id,
      }),
      alphaB: await seedLease(tx, acme.id, {
        ...base,
        workspaceId: wsB,
        serverName: 'alpha',
        approvalId: b1.id,
      }),
      memberAlphaA: await seedLease(tx, acme.id, {
        ...base,
        workspaceId: wsA,
        serverName: 'alpha',
        approvalId: u1.id,
        principalUserId: member.id,
      }),
      otherToken: await seedLease(tx, acme.id, {
        tokenId: workerTokenIds.acme2,
        workspaceId: wsA,
        serverName: 'beta',
        approvalId: a2.id,
      }),
      gateway: await seedLease(tx, acme.id, {
        tokenId: gatewayTokenId,
        tokenKind: 'gateway',
        workspaceId: wsB,
        serverName: 'alpha',
        approvalId: b1.id,
      }),
      released: await seedLease(tx, acme.id, {
        ...base,
        workspaceId: wsA,
        serverName: 'alpha',
        approvalId: a1.id,
        released: true,
      }),
    };
  });
  const globexLease = await db.withTenant(globex.id, async (tx) => {
    const g1 = await seedApproval(tx, globex.id, globexOwner.id, {
      workspaceId: globexWs,
      serverName: 'alpha',
    });
    return seedLease(tx, globex.id, {
      tokenId: workerTokenIds.globex,
      workspaceId: globexWs,
      serverName: 'alpha',
      approvalId: g1.id,
    });
  });
  return { ...acmeLeases, globexLease };
}

type World = Awaited<ReturnType<typeof seedWorld>>;
type LeaseName = Exclude<keyof World, 'approvals'>;

/** Which of the world's leases are revoked (as the superuser reads them), with their reasons. */
async function revokedIn(world: World): Promise<Partial<Record<LeaseName, string>>> {
  const names = Object.keys(world).filter((key) => key !== 'approvals') as LeaseName[];
  const admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
  try {
    const rows = await admin.query<{ id: string; revoked_reason: string | null }>(
      'SELECT id, revoked_reason FROM leases WHERE id = ANY($1::uuid[])',
      [names.map((name) => world[name])],
    );
    const out: Partial<Record<LeaseName, string>> = {};
    for (const name of names) {
      const reason = rows.rows.find((row) => row.id === world[name])?.revoked_reason ?? null;
      if (reason !== null) out[name] = reason;
    }
    return out;
  } finally {
    await admin.end();
  }
}

async function change(kind: RevocationKind, subject: LeaseChangeSubject): Promise<number> {
  return db.withTenant(acme.id, (tx) => appendLeaseChange(tx, kind, subject));
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 4 });
  acme = await createTestTenant(db);
  globex = await createTestTenant(db);
  admin = await createMember(db, acme, 'admin');
  member = await createMember(db, acme, 'member');
  globexOwner = await createMember(db, globex, 'owner');
  wsA = (await createTestWorkspace(db, acme.id)).id;
  wsB = (await createTestWorkspace(db, acme.id)).id;
  globexWs = (await createTestWorkspace(db, globex.id)).id;
  workerTokenIds.acme = await workerToken(acme, admin);
  workerTokenIds.acme2 = await workerToken(acme, admin);
  workerTokenIds.globex = await workerToken(globex, globexOwner);
  const minted = mintTokenSecret('gateway');
  gatewayTokenId = await insertGatewayToken({
    ownerUrl: testDb.ownerUrl,
    name: 'gateway',
    scopes: ['leases:write'],
    pool: 'local',
    secretHash: minted.secretHash,
    prefix: minted.prefix,
    expiresAt: null,
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

describe('a ledger event revokes the live leases its subject concerns, in its transaction', () => {
  it('approval_revoked: the leases issued on that approval, nothing else', async () => {
    const world = await seedWorld();
    const ended = await change('approval_revoked', {
      approvalId: world.approvals.a2,
      workspaceId: wsA,
      serverName: 'beta',
    });
    expect(ended).toBe(2);
    expect(await revokedIn(world)).toEqual({ betaA: 'approval_revoked', otherToken: 'approval_revoked' });
  });

  it('a workspace and server: every principal and token there; another workspace and tenant untouched', async () => {
    const world = await seedWorld();
    await change('overlay_changed', { workspaceId: wsA, serverName: 'alpha', userId: null });
    expect(await revokedIn(world)).toEqual({ alphaA: 'overlay_changed', memberAlphaA: 'overlay_changed' });
  });

  it('a workspace alone (its generation, its trust): every lease of that workspace', async () => {
    const world = await seedWorld();
    await change('workspace_generation_changed', { workspaceId: wsB });
    expect(await revokedIn(world)).toEqual({
      alphaB: 'workspace_generation_changed',
      gateway: 'workspace_generation_changed',
    });
  });

  it('a user: only the leases for that principal (a workspace lease is not the user’s)', async () => {
    const world = await seedWorld();
    await change('oauth_signed_out', { userId: member.id });
    expect(await revokedIn(world)).toEqual({ memberAlphaA: 'oauth_signed_out' });
  });

  it('tokens: the leases those tokens hold, in every workspace', async () => {
    const world = await seedWorld();
    await change('token_revoked', { tokenIds: [workerTokenIds.acme2] });
    expect(await revokedIn(world)).toEqual({ otherToken: 'token_revoked' });
  });

  it('no member (the HostPolicy, a managed source): every live lease of the tenant, and only of it', async () => {
    const world = await seedWorld();
    const ended = await change('host_policy_changed', {});
    expect(ended).toBeGreaterThanOrEqual(6);
    const revoked = await revokedIn(world);
    expect(Object.keys(revoked).sort()).toEqual(
      ['alphaA', 'alphaB', 'betaA', 'gateway', 'memberAlphaA', 'otherToken'].sort(),
    );
    // A released lease keeps how it ended; another tenant's leases are not this tenant's event's.
    expect(revoked.released).toBeUndefined();
    expect(revoked.globexLease).toBeUndefined();
  });

  it('a definition source id does not narrow: its write can change what wins in another source', async () => {
    const world = await seedWorld();
    await change('definition_changed', { definitionSourceId: randomUUID(), workspaceId: wsB, userId: null });
    expect(await revokedIn(world)).toEqual({
      alphaB: 'definition_changed',
      gateway: 'definition_changed',
    });
  });

  it('rolls back with the change: an event that does not commit ends no lease', async () => {
    const world = await seedWorld();
    await expect(
      db.withTenant(acme.id, async (tx) => {
        await appendLeaseChange(tx, 'host_policy_changed', {});
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await revokedIn(world)).toEqual({});
  });

  it("the operator's gateway-token revoke ends that token's leases in every tenant, in the same statement", async () => {
    const world = await seedWorld();
    expect(await revokeGatewayToken({ ownerUrl: testDb.ownerUrl, id: gatewayTokenId })).toBe(true);
    expect(await revokedIn(world)).toEqual({ gateway: 'token_revoked' });
  });
});

describe('the approval-expiry sweep', () => {
  async function ledgerEventsFor(approvalId: string): Promise<{ kind: string }[]> {
    const admin = new Client({ connectionString: testDb.adminUrl });
    await admin.connect();
    try {
      const rows = await admin.query<{ kind: string }>(
        "SELECT kind FROM revocation_events WHERE subject->>'approvalId' = $1",
        [approvalId],
      );
      return rows.rows;
    } finally {
      await admin.end();
    }
  }

  it('writes approval_expired once per expired approval and revokes its leases; a second pass writes nothing', async () => {
    const { expired, current, lease, currentLease } = await db.withTenant(acme.id, async (tx) => {
      const past = await seedApproval(tx, acme.id, admin.id, {
        workspaceId: wsA,
        serverName: 'gamma',
        expiresAt: new Date(Date.now() - 1_000),
      });
      const future = await seedApproval(tx, acme.id, admin.id, {
        workspaceId: wsA,
        serverName: 'delta',
        expiresAt: new Date(Date.now() + 3_600_000),
      });
      const base = { tokenId: workerTokenIds.acme, workspaceId: wsA };
      return {
        expired: past.id,
        current: future.id,
        lease: await seedLease(tx, acme.id, { ...base, serverName: 'gamma', approvalId: past.id }),
        currentLease: await seedLease(tx, acme.id, { ...base, serverName: 'delta', approvalId: future.id }),
      };
    });
    const sweep = new ApprovalExpirySweep({ database: db });
    expect(await sweep.pass()).toBeGreaterThanOrEqual(1);
    expect(await ledgerEventsFor(expired)).toEqual([{ kind: 'approval_expired' }]);
    expect(await ledgerEventsFor(current)).toEqual([]);
    const rows = await db.withTenant(acme.id, (tx) =>
      tx.lease.findMany({ where: { id: { in: [lease, currentLease] } } }),
    );
    expect(rows.find((row) => row.id === lease)?.revokedReason).toBe('approval_expired');
    expect(rows.find((row) => row.id === currentLease)?.revokedAt).toBeNull();
    const audit = await db.withTenant(acme.id, (tx) =>
      tx.auditEvent.findMany({ where: { action: 'approvals.expired', targetId: expired } }),
    );
    expect(audit).toHaveLength(1);

    expect(await sweep.pass()).toBe(0);
    expect(await ledgerEventsFor(expired)).toHaveLength(1);
  });

  it('is safe on several API processes at once: each expiry is recorded by exactly one of them', async () => {
    const ids = await db.withTenant(globex.id, async (tx) => {
      const made: string[] = [];
      for (let i = 0; i < 12; i += 1) {
        const approval = await seedApproval(tx, globex.id, globexOwner.id, {
          workspaceId: globexWs,
          serverName: `many${i}`,
          expiresAt: new Date(Date.now() - 1_000),
        });
        made.push(approval.id);
      }
      return made;
    });
    const processes = [0, 1, 2].map(() => createDatabase({ url: testDb.appUrl, poolMax: 2 }));
    try {
      const sweeps = processes.map((database) => new ApprovalExpirySweep({ database, batchSize: 5 }));
      const recorded = await Promise.all(sweeps.map((sweep) => sweep.pass()));
      expect(recorded.reduce((sum, n) => sum + n, 0)).toBe(ids.length);
      for (const id of ids) expect(await ledgerEventsFor(id)).toEqual([{ kind: 'approval_expired' }]);
    } finally {
      await Promise.all(processes.map((database) => database.close()));
    }
  });
});
