// The worker pool `npm start` declares when the operator declared none (development only): the default pool as
// always, open to every tenant, plus exactly what the demo's `everything` server needs: stdio, one directory a
// child may run in (where `npx` finds the installed package, offline), and that one command as the ceiling.
// Nothing else local is allowed; a WORKER_POOLS the user sets replaces it whole.
//
// The command names an exact version: a ceiling of `npx -y <package>` lets whatever the registry serves under
// that name tomorrow run with the approval given today, so a ceiling pins what it allows.

export const DEMO_EVERYTHING_PACKAGE = '@modelcontextprotocol/server-everything';
/** The version package.json pins for the tests; the demo runs that same installed copy. */
export const DEMO_EVERYTHING_VERSION = '2026.8.31';

/** The demo project source's stdio server, as the seeder writes it and the ceiling allows it. */
export const DEMO_STDIO_COMMAND = [
  'npx',
  '-y',
  `${DEMO_EVERYTHING_PACKAGE}@${DEMO_EVERYTHING_VERSION}`,
] as const;

export function demoWorkerPools(stdioRoot: string): string {
  return JSON.stringify({
    default: {
      tenants: '*',
      stdio: true,
      allowedRoots: [stdioRoot],
      commandCeiling: [[...DEMO_STDIO_COMMAND]],
    },
  });
}
