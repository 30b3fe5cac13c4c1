import { randomBytes } from 'node:crypto';
import { createDatabase, type Database } from '@gatehouse/db';
import { createTestDatabase, TEST_DATABASE_TIMEOUT_MS, type TestDatabase } from '@gatehouse/testing';
import { seedDemoLogin } from '../../apps/api/src/auth/seed-demo-login';
import { DEMO_TENANT_SLUG, seedDemo } from '../../prisma/seed';
import { seedDemoDefinitions } from './demo-definitions.seeder';

jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

let testDb: TestDatabase;
let db: Database;
const keyRing = { keys: `demo-1:${randomBytes(32).toString('base64')}`, activeKeyId: 'demo-1' };

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 1 });
});

afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

describe('seedDemoDefinitions', () => {
  it('writes the demo project source once, which opens a request per server and records no approval', async () => {
    const { tenantId, workspaceId } = await seedDemo(db);
    const login = await seedDemoLogin(db, {
      tenantSlug: DEMO_TENANT_SLUG,
      tenantName: 'Demo',
      email: 'owner@demo.gatehouse.test',
      displayName: 'Demo Owner',
    });
    const target = { tenantId, tenantSlug: DEMO_TENANT_SLUG, workspaceId, ownerEmail: login.email };

    const first = await seedDemoDefinitions(db, keyRing, target);
    expect(first.join('\n')).toContain('everything, docs');
    const second = await seedDemoDefinitions(db, keyRing, target);
    expect(second).toEqual([]);

    const rows = await db.withTenant(tenantId, async (tx) => ({
      sources: await tx.definitionSource.findMany(),
      requests: await tx.approvalRequest.findMany({ where: { status: 'open' }, orderBy: { serverName: 'asc' } }),
      approvals: await tx.approval.count(),
    }));
    expect(rows.sources.map((source) => [source.origin, source.version])).toEqual([[`project:${workspaceId}`, 1]]);
    expect(rows.requests.map((request) => [request.serverName, request.trigger])).toEqual([
      ['docs', 'source_written'],
      ['everything', 'source_written'],
    ]);
    expect(rows.approvals).toBe(0);
  });
});
