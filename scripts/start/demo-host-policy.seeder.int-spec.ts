import { createDatabase, type Database } from '@gatehouse/db';
import { createTestDatabase, TEST_DATABASE_TIMEOUT_MS, type TestDatabase } from '@gatehouse/testing';
import { workerPoolsEnvField } from '../../apps/api/src/auth/pool-config';
import { seedDemoLogin } from '../../apps/api/src/auth/seed-demo-login';
import { DEMO_TENANT_SLUG, seedDemo } from '../../prisma/seed';
import { seedDemoHostPolicy } from './demo-host-policy.seeder';
import { DEMO_STDIO_COMMAND, demoWorkerPools } from './demo-pool';

jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 1 });
});

afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

describe('the demo pool and HostPolicy of npm start', () => {
  it('declares a default pool the API accepts: open to all, stdio for exactly the demo command in the checkout', () => {
    const pools = workerPoolsEnvField.safeParse(demoWorkerPools('/srv/checkout'));
    expect(pools.success && pools.data).toEqual({
      default: {
        tenants: '*',
        stdio: true,
        allowedRoots: ['/srv/checkout'],
        commandCeiling: [[...DEMO_STDIO_COMMAND]],
      },
    });
  });

  it("names the demo command in the demo tenant's HostPolicy once, audited, and leaves an existing one alone", async () => {
    const { tenantId } = await seedDemo(db);
    const login = await seedDemoLogin(db, {
      tenantSlug: DEMO_TENANT_SLUG,
      tenantName: 'Demo',
      email: 'owner@demo.gatehouse.test',
      displayName: 'Demo Owner',
    });
    const target = {
      tenantId,
      tenantSlug: DEMO_TENANT_SLUG,
      ownerEmail: login.email,
      workerPools: demoWorkerPools('/srv/checkout'),
    };
    expect((await seedDemoHostPolicy(db, target)).join('\n')).toContain(DEMO_STDIO_COMMAND.join(' '));
    expect(await seedDemoHostPolicy(db, target)).toEqual([]);

    const rows = await db.withTenant(tenantId, async (tx) => ({
      policy: await tx.hostPolicy.findUnique({ where: { tenantId } }),
      audit: await tx.auditEvent.findMany({ where: { action: 'hostPolicy.put' } }),
    }));
    expect(rows.policy?.stdioCommands).toEqual([[...DEMO_STDIO_COMMAND]]);
    expect(rows.audit).toHaveLength(1);
  });
});
