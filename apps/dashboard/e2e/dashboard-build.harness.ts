import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
