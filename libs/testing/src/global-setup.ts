// jest globalSetup: creates the cluster-wide roles once before any test file, so the per-file databases never
// race on CREATE ROLE, then migrates this run's template database once; each file's database is a copy of it.
// Jest loads this file with its transformer but Node's own module resolution (no moduleNameMapper), so it
// imports the role setup by relative path, not through @gatehouse/db (whose Prisma client needs the mapper).
// eslint-disable-next-line @nx/enforce-module-boundaries -- see above: the alias cannot resolve here.
import { setupDatabaseRoles } from '../../db/src/roles/role-setup';
import { createTemplateDatabase, TEMPLATE_DATABASE_ENV } from './template-database';
import { readTestEnv } from './test-env';

// Jest requires the hook as the module's default export.
export default async function globalSetup(): Promise<void> {
  const env = readTestEnv();
  try {
    await setupDatabaseRoles({
      adminUrl: env.adminUrl,
      passwords: { owner: env.ownerPassword, app: env.appPassword },
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`test setup: cannot prepare database roles via TEST_DATABASE_URL (${detail})`);
  }
  try {
    // The workers are started after this hook, so they inherit the name through the environment.
    process.env[TEMPLATE_DATABASE_ENV] = await createTemplateDatabase(env);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`test setup: cannot create the migrated template database (${detail})`);
  }
}
