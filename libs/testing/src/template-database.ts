import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
// Jest's globalSetup loads this module with Node's own resolution (no moduleNameMapper), so the db helpers are
// imported by relative path, not through @gatehouse/db (whose Prisma client needs the mapper).
/* eslint-disable @nx/enforce-module-boundaries -- see above: the alias cannot resolve in globalSetup. */
import { deriveConnectionUrl } from '../../db/src/roles/connection-url';
import { DATABASE_ROLES } from '../../db/src/roles/database-roles';
import { ensureDatabase } from '../../db/src/roles/database-setup';
import { findMigrationsDir } from '../../db/src/migration/migration-files';
import { runMigrations } from '../../db/src/migration/migration-runner';
/* eslint-enable @nx/enforce-module-boundaries */
import type { TestEnv } from './test-env';

// Migrating from zero (every migration, with its RLS policies and functions) took each integration file seconds
// on a busy machine; copying a migrated database is a file copy inside PostgreSQL. So a run migrates one template
// and every file's database is `CREATE DATABASE ... TEMPLATE` of it. What a copy does NOT take from its template
// is database-level state (owner, CONNECT/TEMPORARY grants, ALTER DATABASE settings): ensureDatabase applies
// those to each copy exactly as it does to a database created from scratch. Roles are cluster-wide and shared
// the same way they always were.

/** Where globalSetup tells the test workers (and globalTeardown) which template this run made. */
export const TEMPLATE_DATABASE_ENV = 'GATEHOUSE_TEST_TEMPLATE_DATABASE';

const TEMPLATE_NAME = /^gh_tmpl_[0-9a-f]{12}$/;
const COPY_NAME = /^gh_t_[0-9a-f]{12}$/;

/**
 * Creates this run's template: a database owned by gatehouse_owner, migrated, then closed to connections
 * (PostgreSQL copies a template only while nobody is connected to it). Returns its name.
 */
export async function createTemplateDatabase(env: TestEnv): Promise<string> {
  const name = `gh_tmpl_${randomBytes(6).toString('hex')}`;
  await ensureDatabase({ adminUrl: env.adminUrl, name });
  const ownerUrl = deriveConnectionUrl(env.adminUrl, {
    database: name,
    user: DATABASE_ROLES.owner,
    password: env.ownerPassword,
  });
  await runMigrations({ url: ownerUrl, migrationsDir: findMigrationsDir() });
  // Both clients above have ended; ALLOW_CONNECTIONS false keeps any later one out, so copies never wait on it.
  await withAdmin(env.adminUrl, (admin) =>
    admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`),
  );
  return name;
}

/** Creates `name` as a copy of the template, with the same owner and connect grants as ensureDatabase gives. */
export async function copyTemplateDatabase(env: TestEnv, template: string, name: string): Promise<void> {
  const source = assertTemplateName(template);
  if (!COPY_NAME.test(name)) throw new Error(`invalid test database name: ${JSON.stringify(name)}`);
  await withAdmin(env.adminUrl, (admin) =>
    admin.query(`CREATE DATABASE "${name}" TEMPLATE "${source}" OWNER ${DATABASE_ROLES.owner}`),
  );
  await ensureDatabase({ adminUrl: env.adminUrl, name });
}

/** Drops this run's template (a template must be unmarked before it can be dropped). Missing is fine. */
export async function dropTemplateDatabase(env: TestEnv, template: string): Promise<void> {
  const name = assertTemplateName(template);
  await withAdmin(env.adminUrl, async (admin) => {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!exists.rowCount) return;
    await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE false`);
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

function assertTemplateName(name: string): string {
  // Interpolated into DDL and read from the environment, so only the shape createTemplateDatabase makes passes.
  if (!TEMPLATE_NAME.test(name)) throw new Error(`invalid template database name: ${JSON.stringify(name)}`);
  return name;
}

async function withAdmin<T>(adminUrl: string, use: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}
