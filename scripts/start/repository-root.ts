import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The checkout's root, found by walking up from `from` to the directory with nx.json and package.json, so a
 * script finds it both from its source (scripts/) and its build (dist/scripts/).
 */
export function findRepositoryRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no nx.json above ${from}`);
  }
}
