import { ensureDatabase, runMigrations, setupDatabaseRoles } from '@gatehouse/db';
import type { ProvidedDatabase } from './database.provider';

export type PreparedDatabase = { created: boolean; applied: string[]; alreadyApplied: number };

/**
 * Roles and database (when we hold a superuser URL), then the migrations as the owner. All three steps are
 * idempotent, so every `npm start` runs them and a second run finds nothing to do.
 */
export async function prepareDatabase(
  database: ProvidedDatabase,
  migrationsDir: string,
): Promise<PreparedDatabase> {
  let created = false;
  if (database.adminUrl) {
    await setupDatabaseRoles({
      adminUrl: database.adminUrl,
      ...(database.passwords ? { passwords: database.passwords } : {}),
    });
    ({ created } = await ensureDatabase({ adminUrl: database.adminUrl, name: database.databaseName }));
  }
  const result = await runMigrations({ url: database.migrationUrl, migrationsDir });
  return { created, applied: result.applied, alreadyApplied: result.alreadyApplied.length };
}

/** A connection URL fit for printing: user, host, port and database, never the password. */
export function displayUrl(connectionUrl: string): string {
  const url = new URL(connectionUrl);
  url.password = '';
  url.search = '';
  return url.toString();
}
