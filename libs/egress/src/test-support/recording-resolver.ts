// Test helper (not exported from the lib): a resolver over a fixed table that records every name it was
// asked, so tests can prove which lookups happened and which did not.
import type { ResolveResult, Resolver } from '../resolver/resolver.port.js';

export interface RecordingResolver extends Resolver {
  readonly asked: string[];
}

export function recordingResolver(answers: Readonly<Record<string, readonly string[]>>): RecordingResolver {
  const asked: string[] = [];
  return {
    asked,
    resolve(hostname: string): Promise<ResolveResult> {
      asked.push(hostname);
      const addresses = Object.hasOwn(answers, hostname) ? answers[hostname] : undefined;
      return Promise.resolve(
        addresses === undefined ? { ok: false, reason: 'unresolvable' } : { ok: true, addresses },
      );
    },
  };
}
