// A resolver that remembers each name's last good answer for a bounded time, so a pooled fetch need not ask
// DNS before every request. Admission still runs on every request against the remembered answer (every
// address checked each time); only the lookup is saved. A failure or a malformed answer is never remembered:
// the next request asks again. The table is bounded (oldest name out first), and a TTL of 0 remembers nothing.
import { MAX_RESOLVED_ADDRESSES } from '../policy/bounded-resolution.js';
import type { ResolveResult, Resolver } from './resolver.port.js';

export interface CachedResolverOptions {
  /** How long an answer is used before the name is asked again, in ms; 0 asks every time. */
  readonly ttlMs: number;
  /** Names remembered at once. */
  readonly maxNames: number;
  /** Milliseconds on a monotonic clock; `performance.now` when absent. */
  readonly now?: () => number;
}

interface Remembered {
  readonly answer: ResolveResult;
  readonly expiresAt: number;
}

// Only an answer admission could accept is worth remembering; it is copied and frozen, so neither the
// resolver nor a caller can change it afterwards.
function rememberable(answer: unknown): ResolveResult | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const { ok, addresses } = answer as { readonly ok?: unknown; readonly addresses?: unknown };
  if (ok !== true || !Array.isArray(addresses)) return null;
  if (addresses.length === 0 || addresses.length > MAX_RESOLVED_ADDRESSES) return null;
  const copy: string[] = [];
  for (const address of addresses as unknown[]) {
    if (typeof address !== 'string') return null;
    copy.push(address);
  }
  return Object.freeze({ ok: true, addresses: Object.freeze(copy) });
}

export function createCachedResolver(inner: Resolver, options: CachedResolverOptions): Resolver {
  const { ttlMs, maxNames } = options;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0)
    throw new Error('createCachedResolver: ttlMs must be a non-negative integer');
  if (!Number.isSafeInteger(maxNames) || maxNames <= 0)
    throw new Error('createCachedResolver: maxNames must be a positive integer');
  const now = options.now ?? (() => performance.now());
  const table = new Map<string, Remembered>();

  return {
    async resolve(hostname) {
      if (ttlMs === 0) return inner.resolve(hostname);
      const known = table.get(hostname);
      if (known !== undefined && now() < known.expiresAt) return known.answer;
      table.delete(hostname);
      const answer: unknown = await inner.resolve(hostname);
      const kept = rememberable(answer);
      if (kept === null) return answer as ResolveResult;
      table.set(hostname, { answer: kept, expiresAt: now() + ttlMs });
      if (table.size > maxNames) {
        const oldest = table.keys().next();
        if (oldest.done !== true) table.delete(oldest.value);
      }
      return kept;
    },
  };
}
