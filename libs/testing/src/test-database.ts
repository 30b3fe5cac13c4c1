import { randomBytes } from 'node:crypto';
import {
  DATABASE_ROLES,
  deriveConnectionUrl,
  dropDatabase,
  ensureDatabase,
  findMigrationsDir,
  runMigrations,
} from '@gatehouse/db';
import { markTemplateCopy } from './template-copies';
import { copyTemplateDatabase, TEMPLATE_DATABASE_ENV } from './template-database';
import { readTestEnv } from './test-env';

/**
 * Timeout for a beforeAll that creates a test database (CREATE DATABASE, migrations, first Prisma connection):
 * seconds on a busy two-core machine, well above jest's 5 s default for hooks.
 */
export const TEST_DATABASE_TIMEOUT_MS = 60_000;

export interface TestDatabase {
  name: string;
  /** As gatehouse_app: what the app uses; row-level security applies. */
  appUrl: string;
  /** As gatehouse_owner: what migrations use. */
  ownerUrl: string;
  /** As the superuser, connected to this database. */
  adminUrl: string;
  /**
   * Releases the database; call in afterAll. A copy of the run's template is dropped by globalTeardown, with every
   * other copy at once (dropTemplateCopies: each DROP waits for a checkpoint, which drops at the same time
   * share); a database migrated from zero (no template: a caller outside jest) is dropped now.
   */
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file, owned by gatehouse_owner and migrated, so test files run in parallel
 * without sharing rows. Needs the cluster roles, which jest's globalSetup creates once per run together with a
 * migrated template that this copies; without that template (a caller outside jest) it migrates from zero.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const env = readTestEnv();
  const name = `gh_t_${randomBytes(6).toString('hex')}`;
  const template = process.env[TEMPLATE_DATABASE_ENV];
  if (template) {
    await copyTemplateDatabase(env, template, name);
    await markTemplateCopy(env, name, template);
  } else await ensureDatabase({ adminUrl: env.adminUrl, name });
  const ownerUrl = deriveConnectionUrl(env.adminUrl, {
    database: name,
    user: DATABASE_ROLES.owner,
    password: env.ownerPassword,
  });
  const appUrl = deriveConnectionUrl(env.adminUrl, {
    database: name,
    user: DATABASE_ROLES.app,
    password: env.appPassword,
  });
  if (!template) await runMigrations({ url: ownerUrl, migrationsDir: findMigrationsDir() });
  return {
    name,
    appUrl,
    ownerUrl,
    adminUrl: deriveConnectionUrl(env.adminUrl, { database: name }),
    drop: template ? () => Promise.resolve() : () => dropDatabase({ adminUrl: env.adminUrl, name }),
  };
}
