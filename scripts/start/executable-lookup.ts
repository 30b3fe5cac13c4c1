import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first `name` on PATH that we may execute, like `command -v`, or undefined. */
export function findOnPath(name: string, pathVariable: string | undefined): string | undefined {
  for (const dir of (pathVariable ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
