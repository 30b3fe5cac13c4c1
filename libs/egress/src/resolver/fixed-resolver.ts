// A resolver with a fixed table of answers (no DNS). A name not in the table is unresolvable, as it would be for a
// real resolver. Production uses it: the MCP client's HTTP transport pins its fetch to the addresses the lease
// already admitted (libs/mcp-client http-transport-factory.ts), so it stays on the public surface; specs use it for
// names that have no DNS.
import type { ResolveResult, Resolver } from './resolver.port.js';

export function createFixedResolver(answers: Readonly<Record<string, readonly string[]>>): Resolver {
  const table = new Map(Object.entries(answers));
  return {
    resolve(hostname: string): Promise<ResolveResult> {
      const addresses = table.get(hostname);
      return Promise.resolve(
        addresses === undefined ? { ok: false, reason: 'unresolvable' } : { ok: true, addresses },
      );
    },
  };
}
