import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

// Whether `next build` must run before the test starts the dashboard: no build yet, or an input newer than it.
// The same rule as scripts/start/dashboard-build.check.ts (npm start), which this project may not import.

function newestMtime(path: string): number {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === '.next' || entry === 'dist' || entry === 'e2e') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export function dashboardBuildIsStale(repositoryRoot: string): boolean {
  const dashboard = join(repositoryRoot, 'apps', 'dashboard');
  const builtAt = newestMtime(join(dashboard, '.next', 'BUILD_ID'));
  if (builtAt === 0) return true;
  const inputs = [
    join(dashboard, 'src'),
    join(dashboard, 'public'),
    join(dashboard, 'next.config.ts'),
    join(dashboard, 'tsconfig.json'),
    join(repositoryRoot, 'libs', 'contracts', 'src'),
    join(repositoryRoot, 'package-lock.json'),
  ];
  return Math.max(...inputs.map(newestMtime)) > builtAt;
}

const LOCK_NAME = '.gatehouse-e2e-build.lock';

function holderIsAlive(lockPath: string): boolean {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but is not ours to signal; anything else: gone (or the lock already is).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves when `lockPath` is removed (or its holder died), watching its directory rather than polling. */
function lockReleased(lockPath: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(lockPath), () => {
      if (!existsSync(lockPath) || !holderIsAlive(lockPath)) done();
    });
    // A holder killed without removing its lock emits no event: re-check now and then for a dead pid.
    const deadHolderCheck = setInterval(() => {
      if (!existsSync(lockPath) || !holderIsAlive(lockPath)) done();
    }, 2_000);
    function done(): void {
      clearInterval(deadHolderCheck);
      watcher.close();
      resolve();
    }
    if (!existsSync(lockPath) || !holderIsAlive(lockPath)) done();
  });
}

/**
 * Runs `build` in at most one test process at a time: jest runs the browser spec files in parallel workers,
 * and `next build` refuses to run twice in one directory. The lock is a file created exclusively, holding
 * the holder's pid so a crashed holder does not block the next run. A waiter re-checks staleness after the
 * holder is done, so the dashboard is built once per change, not once per file.
 */
export async function buildOnceAcrossWorkers(
  repositoryRoot: string,
  build: () => Promise<void>,
): Promise<void> {
  const lockPath = join(repositoryRoot, 'apps', 'dashboard', LOCK_NAME);
  for (;;) {
    if (!dashboardBuildIsStale(repositoryRoot)) return;
    let fd: number;
    try {
      fd = openSync(lockPath, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!holderIsAlive(lockPath)) rmSync(lockPath, { force: true });
      else await lockReleased(lockPath);
      continue;
    }
    try {
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      if (dashboardBuildIsStale(repositoryRoot)) await build();
      return;
    } finally {
      rmSync(lockPath, { force: true });
    }
  }
}
