// Node 22 for the programs that need it (the conformance suite, the MCP Inspector 2.x); the project runs on Node
// 20. Rather than install Node 22 into node_modules (its `node` package links node_modules/.bin/node, which npm
// puts first on PATH for every script), npm fetches the `node` package into its own cache (npm-exec.ts) the
// first time it is asked for, and later runs reuse it. Only the binary's path is asked for: each program is then
// spawned on that binary directly, with its own environment.
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { once, printInsideNpmExec } from './npm-exec';

/** Exact pin: the `node` package's version is the Node version it installs. */
export const NODE_22_PACKAGE = 'node@22.23.3';
const EXPECTED_VERSION = 'v22.23.3';
// The first fetch downloads the Linux build (about 30 MB) from the npm registry.
const FETCH_TIMEOUT_MS = 180_000;

/** The absolute path of Node 22's binary, fetched once per process. */
export const node22: () => Promise<string> = once(async () => {
  const printed = await printInsideNpmExec(
    NODE_22_PACKAGE,
    'JSON.stringify([process.version, process.execPath])',
    FETCH_TIMEOUT_MS,
  );
  const [version, execPath] = Array.isArray(printed) ? (printed as unknown[]) : [];
  if (
    version !== EXPECTED_VERSION ||
    typeof execPath !== 'string' ||
    !isAbsolute(execPath) ||
    !existsSync(execPath)
  ) {
    throw new Error(`npm exec ${NODE_22_PACKAGE} ran ${String(version)} at ${String(execPath)}`);
  }
  return execPath;
});
