import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// `npm start` runs the dashboard as a production build (`next build` once, then `next start`) rather than
// `next dev`: dev mode compiles every route on first request and keeps Turbopack and file watchers busy, which
// on a 2-core machine makes the first page load slow and competes with the API; a production server answers
// its health check at once and is what the Docker image runs. The cost is a ~20 s build, paid only when the
// dashboard's sources are newer than its last build; frontend work can still use `next dev apps/dashboard`.

/** Newest modification time (ms) of the files under `path`, skipping build output and dependencies. */
export function newestMtime(path: string): number {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === '.next' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export type DashboardBuildState = { stale: false } | { stale: true; reason: 'missing' | 'sources_changed' };

/** Whether `next build` must run before `next start`: no build yet, or an input changed after it. */
export function dashboardBuildState(repositoryRoot: string): DashboardBuildState {
  const dashboardDir = join(repositoryRoot, 'apps', 'dashboard');
  const builtAt = newestMtime(join(dashboardDir, '.next', 'BUILD_ID'));
  if (builtAt === 0) return { stale: true, reason: 'missing' };
  const inputs = [
    join(dashboardDir, 'src'),
    join(dashboardDir, 'public'),
    join(dashboardDir, 'next.config.ts'),
    join(dashboardDir, 'tsconfig.json'),
    join(repositoryRoot, 'libs', 'contracts', 'src'),
    join(repositoryRoot, 'package-lock.json'),
  ];
  const newestInput = Math.max(...inputs.map(newestMtime));
  return newestInput > builtAt ? { stale: true, reason: 'sources_changed' } : { stale: false };
}
