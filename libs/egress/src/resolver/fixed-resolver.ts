// A resolver with a fixed table of answers, for tests across Gatehouse (no DNS). A name not in the table is
// unresolvable, as it would be for a real resolver.
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
