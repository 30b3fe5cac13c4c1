import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { readChildUser } from '@gatehouse/platform';
import { DEMO_EVERYTHING_PACKAGE, DEMO_EVERYTHING_VERSION } from './demo-pool';
import { osUserMay } from './postgres-os-user';

// As root, the worker and the gateway run the demo's stdio server as CHILD_USER (`nobody` by default), never as
// root. A checkout under a directory only root may enter (a 0700 home, a `mktemp -d` folder) hides the installed
// package from that account, so rather than loosen someone's home directory we copy the one pinned package and
// its dependencies into a world-readable directory under /var/tmp and let the demo pool run it there.

export const DEMO_STAGING_ROOT = '/var/tmp/gatehouse-demo-stdio';

export interface DemoStdioRoot {
  /** The directory the demo pool allows children to run in. */
  readonly root: string;
  /** One line for the start output when the root is not the checkout. */
  readonly note: string | null;
}

export function demoStdioRoot(
  checkout: string,
  childUserSetting: string | undefined,
  stagingRoot: string = DEMO_STAGING_ROOT,
): DemoStdioRoot {
  if (process.getuid?.() !== 0) return { root: checkout, note: null };
  const read = readChildUser(childUserSetting ?? 'nobody');
  if (!read.ok || read.user === 'self') return { root: checkout, note: null };
  const installed = join(checkout, 'node_modules', ...DEMO_EVERYTHING_PACKAGE.split('/'), 'package.json');
  if (osUserMay(read.user, '-x', join(installed, '..'))) return { root: checkout, note: null };
  const staged = join(stagingRoot, DEMO_EVERYTHING_VERSION);
  // /var/tmp is anyone's to write: a directory someone else made there first (or a symlink) is not ours to run.
  if (existsSync(stagingRoot)) assertRootOwned(stagingRoot);
  if (!existsSync(join(staged, 'node_modules', ...DEMO_EVERYTHING_PACKAGE.split('/'), 'package.json'))) {
    stage(checkout, stagingRoot, staged);
  }
  assertRootOwned(staged);
  return {
    root: staged,
    note: `the demo's stdio server runs as an unprivileged account that cannot enter this checkout: it runs from ${staged}`,
  };
}

/**
 * Copies the installed package and everything it depends on (its production dependencies, found the way Node
 * resolves them) from the checkout's node_modules, at the same relative paths, so resolution in the copy finds
 * the same files. Made under a temporary name and renamed into place, so a concurrent start never sees half a copy.
 */
function stage(checkout: string, stagingRoot: string, target: string): void {
  mkdirSync(stagingRoot, { recursive: true, mode: 0o755 });
  assertRootOwned(stagingRoot);
  // Root's own directory, so opening it for the child account to enter changes nothing anyone else can do.
  chmodSync(stagingRoot, 0o755);
  const temporary = `${target}.partial-${randomBytes(4).toString('hex')}`;
  try {
    for (const packageDir of dependencyClosure(checkout, DEMO_EVERYTHING_PACKAGE)) {
      cpSync(packageDir, join(temporary, relative(checkout, packageDir)), {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
    linkBins(temporary, join(temporary, 'node_modules', ...DEMO_EVERYTHING_PACKAGE.split('/')));
    writeFileSync(join(temporary, 'package.json'), '{"private":true}\n');
    chmodTree(temporary);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
}

/** A real directory (not a symlink) owned by root and writable by no one else, or the start stops here. */
function assertRootOwned(path: string): void {
  const info = lstatSync(path);
  if (!info.isDirectory() || info.uid !== 0 || (info.mode & 0o022) !== 0) {
    throw new Error(`${path} is not a root-owned directory only root may write: remove it and start again`);
  }
}

/** `node_modules/.bin` links for the package's commands: what `npx` runs once it finds the package installed. */
function linkBins(root: string, packageDir: string): void {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    name: string;
    bin?: string | Record<string, string>;
  };
  const bins =
    typeof manifest.bin === 'string'
      ? { [manifest.name.split('/').pop() ?? manifest.name]: manifest.bin }
      : (manifest.bin ?? {});
  const binDir = join(root, 'node_modules', '.bin');
  mkdirSync(binDir, { recursive: true });
  for (const [command, file] of Object.entries(bins)) {
    symlinkSync(relative(binDir, join(packageDir, file)), join(binDir, command));
    chmodSync(join(packageDir, file), 0o755);
  }
}

/** The directories of `name` and of its production dependencies, transitively, as installed under `root`. */
function dependencyClosure(root: string, name: string): string[] {
  const found = new Set<string>();
  const pending: { name: string; from: string }[] = [{ name, from: root }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const dir = installedDirectory(root, next.name, next.from);
    if (dir === null) throw new Error(`demo stdio server: ${next.name} is not installed (run npm install)`);
    if (found.has(dir)) continue;
    found.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys(manifest.dependencies ?? {}))
      pending.push({ name: dependency, from: dir });
    for (const optional of Object.keys(manifest.optionalDependencies ?? {})) {
      if (installedDirectory(root, optional, dir) !== null) pending.push({ name: optional, from: dir });
    }
  }
  return [...found];
}

/** Node's lookup: `node_modules/<name>` in `from`, then in each ancestor up to `root`. */
function installedDirectory(root: string, name: string, from: string): string | null {
  for (let dir = from; dir.startsWith(root); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root) break;
  }
  return null;
}

/** Directories 0755, files readable by all (executables stay executable): the child account only reads. */
function chmodTree(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) chmodTree(join(path, entry));
  } else {
    chmodSync(path, stat.mode & 0o111 ? 0o755 : 0o644);
  }
}
