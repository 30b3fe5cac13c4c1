import {
  MigrationChecksumMismatchError,
  UnfinishedMigrationError,
  UnknownAppliedMigrationError,
  type MigrationError,
} from './migration-errors';
import type { MigrationFile } from './migration-files';

/** One row of `_prisma_migrations` that was not rolled back. */
export interface AppliedMigration {
  name: string;
  checksum: string;
  finished: boolean;
}

export type MigrationPlan =
  { ok: true; pending: MigrationFile[]; applied: string[] } | { ok: false; error: MigrationError };

/**
 * Decides what to apply. Refuses when history and files disagree: an applied file was edited, the database
 * has a migration the files do not, or a migration was left unfinished (a failed `prisma migrate deploy`).
 * Pending files are applied in name order even if older than the newest applied one (merged branches).
 */
export function planMigrations(
  files: readonly MigrationFile[],
  history: readonly AppliedMigration[],
): MigrationPlan {
  const byName = new Map(files.map((f) => [f.name, f]));
  const applied = new Set<string>();
  for (const row of history) {
    if (!row.finished) return { ok: false, error: new UnfinishedMigrationError(row.name) };
    const file = byName.get(row.name);
    if (!file) return { ok: false, error: new UnknownAppliedMigrationError(row.name) };
    if (file.checksum !== row.checksum)
      return { ok: false, error: new MigrationChecksumMismatchError(row.name) };
    applied.add(row.name);
  }
  return {
    ok: true,
    pending: files.filter((f) => !applied.has(f.name)),
    applied: files.filter((f) => applied.has(f.name)).map((f) => f.name),
  };
}
