// `npm run migrate`: applies prisma/migrations as the owner (MIGRATION_DATABASE_URL). With DATABASE_ADMIN_URL
// (a superuser URL) it first creates the cluster roles and the database. Compiled to dist/scripts/migrate.js.
import { z } from 'zod';
import {
  databaseNameOf,
  ensureDatabase,
  findMigrationsDir,
  runMigrations,
  setupDatabaseRoles,
  type RunMigrationsResult,
} from '@gatehouse/db';
import {
  createLogger,
  logLevelField,
  parseConfig,
  postgresUrlField,
  secret,
  secretConfigKeys,
  secretConfigValues,
  type Env,
} from '@gatehouse/platform';

export const migrateConfigSchema = z.object({
  MIGRATION_DATABASE_URL: secret(postgresUrlField()).describe(
    'Owner connection (gatehouse_owner) that applies the migrations; never the app role.',
  ),
  DATABASE_ADMIN_URL: secret(postgresUrlField())
    .optional()
    .describe('Superuser connection; when set, the cluster roles and the database are created first.'),
  DATABASE_OWNER_PASSWORD: secret(z.string().min(1))
    .optional()
    .describe('Password given to gatehouse_owner by the role setup (none: trust/peer auth).'),
  DATABASE_APP_PASSWORD: secret(z.string().min(1))
    .optional()
    .describe('Password given to gatehouse_app by the role setup (none: trust/peer auth).'),
  LOG_LEVEL: logLevelField(),
});

export type MigrateConfig = z.output<typeof migrateConfigSchema>;

export async function migrate(config: MigrateConfig): Promise<RunMigrationsResult> {
  const logger = createLogger({
    name: 'migrate',
    level: config.LOG_LEVEL,
    secretKeys: secretConfigKeys(migrateConfigSchema),
    secretValues: secretConfigValues(migrateConfigSchema, config),
  });
  if (config.DATABASE_ADMIN_URL) {
    const name = databaseNameOf(config.MIGRATION_DATABASE_URL);
    if (!name) throw new Error('MIGRATION_DATABASE_URL names no database');
    await setupDatabaseRoles({
      adminUrl: config.DATABASE_ADMIN_URL,
      passwords: { owner: config.DATABASE_OWNER_PASSWORD, app: config.DATABASE_APP_PASSWORD },
    });
    const { created } = await ensureDatabase({ adminUrl: config.DATABASE_ADMIN_URL, name });
    logger.info({ database: name, created }, 'database roles and database ready');
  }
  const result = await runMigrations({
    url: config.MIGRATION_DATABASE_URL,
    migrationsDir: findMigrationsDir(),
    logger,
  });
  logger.info(
    { applied: result.applied.length, alreadyApplied: result.alreadyApplied.length },
    'migrations done',
  );
  return result;
}

async function main(env: Env): Promise<void> {
  const parsed = parseConfig(migrateConfigSchema, env);
  if (!parsed.ok) {
    process.stderr.write(`${parsed.message}\n`);
    process.exit(1);
  }
  try {
    await migrate(parsed.config);
  } catch (error) {
    // One line: MigrationError messages name the migration and what to do.
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`migrate: ${message.replace(/\s+/g, ' ')}\n`);
    process.exit(1);
  }
}

if (require.main === module) void main(process.env);
