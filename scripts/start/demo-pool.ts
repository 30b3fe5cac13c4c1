// The worker pool `npm start` declares when the operator declared none (development only): the default pool as
// always, open to every tenant, plus exactly what the demo's `everything` server needs: stdio, the checkout as
// the one root a child may run in (where `npx` finds the installed package, offline), and that one command as the
// ceiling. Nothing else local is allowed; a WORKER_POOLS the user sets replaces it whole.

/** The demo project source's stdio server, as the seeder writes it and the ceiling allows it. */
export const DEMO_STDIO_COMMAND = ['npx', '-y', '@modelcontextprotocol/server-everything'] as const;

export function demoWorkerPools(checkout: string): string {
  return JSON.stringify({
    default: {
      tenants: '*',
      stdio: true,
      allowedRoots: [checkout],
      commandCeiling: [[...DEMO_STDIO_COMMAND]],
    },
  });
}
