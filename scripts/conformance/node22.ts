// The conformance suite needs Node 22; the project runs on Node 20. Rather than install Node 22 into node_modules
// (its `node` package links node_modules/.bin/node, which npm puts first on PATH for every script), npm fetches
// the `node` package into its own cache (`npm exec`) the first time a suite runs, and later runs reuse it. Only
// the binary's path is asked for: each suite is then spawned on that binary directly, with its own environment.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { promisify } from 'node:util';

/** Exact pin: the `node` package's version is the Node version it installs. */
export const NODE_22_PACKAGE = 'node@22.23.3';
const EXPECTED_VERSION = 'v22.23.3';
// The first fetch downloads the Linux build (about 30 MB) from the npm registry.
const FETCH_TIMEOUT_MS = 180_000;

let located: Promise<string> | undefined;

/** The absolute path of Node 22's binary, fetched once per process. */
export function node22(): Promise<string> {
  located ??= locate().catch((error: unknown) => {
    located = undefined;
    throw error;
  });
  return located;
}

async function locate(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    'npm',
    [
      'exec',
      '--yes',
      `--package=${NODE_22_PACKAGE}`,
      '--',
      'node',
      '-p',
      'JSON.stringify([process.version, process.execPath])',
    ],
    { timeout: FETCH_TIMEOUT_MS },
  );
  const [version, execPath] = JSON.parse(stdout.trim().split('\n').pop() ?? '[]') as [unknown, unknown];
  if (
    version !== EXPECTED_VERSION ||
    typeof execPath !== 'string' ||
    !isAbsolute(execPath) ||
    !existsSync(execPath)
  ) {
    throw new Error(`npm exec ${NODE_22_PACKAGE} ran ${String(version)} at ${String(execPath)}`);
  }
  return execPath;
}
