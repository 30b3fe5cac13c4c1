import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface MigrationFile {
  /** The directory name, e.g. `20261130010000_init`; migrations apply in its lexical order. */
  name: string;
  sql: string;
  /** sha256 of migration.sql's bytes, hex: the same value Prisma records. */
  checksum: string;
}

/** Reads `<dir>/<name>/migration.sql` for every subdirectory, sorted by name. */
export async function readMigrationFiles(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const files: MigrationFile[] = [];
  for (const name of names) {
    const bytes = await readFile(join(migrationsDir, name, 'migration.sql'));
    files.push({
      name,
      sql: bytes.toString('utf8'),
      checksum: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  return files;
}

/**
 * Finds `prisma/migrations` by walking up from a directory, so the same code works from source (jest, tsc)
 * and from the compiled `dist/` tree.
 */
export function findMigrationsDir(fromDir: string = __dirname): string {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'prisma', 'migrations');
    if (existsSync(join(candidate, 'migration_lock.toml'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`prisma/migrations not found above ${fromDir}`);
    dir = parent;
  }
}
