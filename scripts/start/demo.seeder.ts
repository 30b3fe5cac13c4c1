import { createDatabase } from '@gatehouse/db';
import { seedDemoLogin } from '../../apps/api/src/auth/seed-demo-login';
import { DEMO_TENANT_SLUG, seedDemo } from '../../prisma/seed';
import type { ProvidedDatabase } from './database.provider';
import { seedDemoDefinitions } from './demo-definitions.seeder';
import { seedDemoHostPolicy } from './demo-host-policy.seeder';

export const DEMO_OWNER_EMAIL = 'owner@demo.gatehouse.test';

/**
 * Seeds the demo tenant through the app role (the seed runs under row-level security like the API does) and
 * returns the lines to print. Fields the seed adds later (the identity work's demo login) are printed too.
 */
export async function seedDemoData(
  database: ProvidedDatabase,
  keyRing: { keys: string; activeKeyId: string } | undefined,
  /** The API's WORKER_POOLS (JSON) when they allow the demo's stdio server: its HostPolicy is seeded too. */
  demoWorkerPools?: string,
): Promise<string[]> {
  const db = createDatabase({ url: database.appUrl, poolMax: 1 });
  try {
    const result: Record<string, unknown> = { ...(await seedDemo(db)) };
    const { created, tenantId, workspaceId, ...rest } = result;
    const lines = [
      `${created ? 'seeded' : 'found'} the demo tenant "demo" (${String(tenantId)}) with workspace "demo" (${String(workspaceId)})`,
    ];
    for (const [key, value] of Object.entries(rest)) {
      lines.push(`  demo ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
    }
    // A fresh password on every start (audited as a reset), printed once here and stored only as its hash.
    const login = await seedDemoLogin(db, {
      tenantSlug: DEMO_TENANT_SLUG,
      tenantName: 'Demo',
      email: DEMO_OWNER_EMAIL,
      displayName: 'Demo Owner',
    });
    lines.push(`  demo login: ${login.email} / ${login.password} (tenant "${login.tenantSlug}", role owner)`);
    // Definitions are encrypted: without a key ring the API will read (production sets its own), none are seeded.
    if (keyRing !== undefined) {
      lines.push(
        ...(await seedDemoDefinitions(db, keyRing, {
          tenantId: String(tenantId),
          tenantSlug: DEMO_TENANT_SLUG,
          workspaceId: String(workspaceId),
          ownerEmail: login.email,
        })),
      );
    }
    if (demoWorkerPools !== undefined) {
      lines.push(
        ...(await seedDemoHostPolicy(db, {
          tenantId: String(tenantId),
          tenantSlug: DEMO_TENANT_SLUG,
          ownerEmail: login.email,
          workerPools: demoWorkerPools,
        })),
      );
    }
    return lines;
  } finally {
    await db.close();
  }
}
