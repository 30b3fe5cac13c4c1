import { createDatabase } from '@gatehouse/db';
import { seedDemo } from '../../prisma/seed';
import type { ProvidedDatabase } from './database.provider';

/**
 * Seeds the demo tenant through the app role (the seed runs under row-level security like the API does) and
 * returns the lines to print. Fields the seed adds later (the identity work's demo login) are printed too.
 */
export async function seedDemoData(database: ProvidedDatabase): Promise<string[]> {
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
    return lines;
  } finally {
    await db.close();
  }
}
