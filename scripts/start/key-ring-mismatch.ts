import type { PreparedDatabase } from './database.preparer';

/**
 * A development key ring generated now (a fresh clone, or `.gatehouse/` deleted) cannot open what a database that
 * was already set up sealed under the previous one: a local PostgreSQL keeps the database outside `.gatehouse/`.
 * The demo's source then reads as `storage_unreadable` and its old requests answer `changed_since_review`; one
 * line at start says why and how to start over, instead of an empty Servers page.
 */
export function keyRingMismatchWarning(
  prepared: PreparedDatabase,
  devRing: { created: boolean },
  databaseName: string,
): string | undefined {
  if (!devRing.created || prepared.created || prepared.alreadyApplied === 0) return undefined;
  return (
    `the database ${databaseName} was set up before this key ring: what it sealed under another one (definition ` +
    `sources, sign-ins) cannot be read (storage_unreadable); to start over, stop, drop it (the local server: ` +
    `dropdb -h 127.0.0.1 -U postgres ${databaseName}) and start again (README: Quick start)`
  );
}
