import { Client } from 'pg';
import { MigrationFailedError } from './migration-errors';
import { readMigrationFiles, type MigrationFile } from './migration-files';
import { ensureHistoryTable, readHistory, recordApplied } from './migration-history';
import { planMigrations } from './migration-plan';

/** The subset of a pino logger the runner uses. */
export interface MigrationLogger {
  info(fields: Record<string, unknown>, message: string): void;
}

export interface RunMigrationsOptions {
  /** The owner's connection (MIGRATION_DATABASE_URL), never the app's. */
  url: string;
  migrationsDir: string;
  logger?: MigrationLogger;
}

export interface RunMigrationsResult {
  /** Names applied by this run, in order. */
  applied: string[];
  /** Names that were already applied before this run. */
  alreadyApplied: string[];
}

/**
 * The key `prisma migrate` itself locks on, so our runner and Prisma's never migrate one database at once.
 */
const MIGRATE_LOCK_KEY = 72707369;

/**
 * Applies pending migrations, each in its own transaction together with its history row. Concurrent runners
 * queue on a session advisory lock; the later ones find nothing pending. Throws a MigrationError (naming the
 * migration) when an applied file changed, when the database knows a migration the files do not, when one
 * was left unfinished, or when one fails (it is rolled back and not recorded, so fixing it and re-running
 * works). Migration files must not contain their own BEGIN/COMMIT or statements that cannot run in a
 * transaction (CREATE INDEX CONCURRENTLY).
 */
export async function runMigrations(options: RunMigrationsOptions): Promise<RunMigrationsResult> {
  const files = await readMigrationFiles(options.migrationsDir);
  const client = new Client({ connectionString: options.url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK_KEY]);
    await ensureHistoryTable(client);
    const plan = planMigrations(files, await readHistory(client));
    if (!plan.ok) throw plan.error;
    for (const migration of plan.pending) {
      await applyOne(client, migration);
      options.logger?.info({ migration: migration.name }, 'migration applied');
    }
    return { applied: plan.pending.map((m) => m.name), alreadyApplied: plan.applied };
  } finally {
    // Ending the session releases the advisory lock.
    await client.end();
  }
}

async function applyOne(client: Client, migration: MigrationFile): Promise<void> {
  const startedAt = new Date();
  await client.query('BEGIN');
  try {
    // No parameters: the simple query protocol runs the whole multi-statement file.
    await client.query(migration.sql);
    await recordApplied(client, migration.name, migration.checksum, startedAt);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new MigrationFailedError(migration.name, error);
  }
}
