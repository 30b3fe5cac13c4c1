import type { TokenLookup } from '@gatehouse/db';

// A short-lived, process-local cache of bearer token lookups (gh_auth_token), keyed by the sha256 of the
// secret (the secret itself is never held). It saves one database round trip per authenticated request.
//
// Freshness has three bounds (decisions 0033 and 0053):
// - in the process that revokes (tokens.revoke, members.remove, members.changeRole), at once:
//   `evictCachedTokens` runs after the change commits and drops every entry of the process;
// - in every other API replica, for changes that write a revocation event (those three, and the operator CLI's
//   revoke-token), when the event arrives (revocations/token-cache-revocation-holder.ts);
// - for anything else (a direct database change), at most `ttlMs` (DEFAULT_TOKEN_CACHE_TTL_MS, 5 s).
// Expiry is checked on every request against the cached `expiresAt`.

export const DEFAULT_TOKEN_CACHE_TTL_MS = 5_000;
export const DEFAULT_TOKEN_CACHE_MAX_ENTRIES = 10_000;

export interface TokenLookupCacheOptions {
  /** How long an entry is served without asking the database again; 0 turns the cache off. */
  readonly ttlMs: number;
  readonly maxEntries?: number;
  /** Monotonic milliseconds; `performance.now` by default. */
  readonly now?: () => number;
}

/** What changed, for the record: eviction is process-wide and whole, so any revocation drops every entry. */
export interface TokenRevocation {
  readonly tokenIds?: readonly string[];
  readonly userIds?: readonly string[];
}

interface Entry {
  readonly lookup: TokenLookup;
  readonly storedAt: number;
  readonly generation: number;
}

// Process-wide: every cache of the process (one per API app) compares its entries with it, so an eviction
// needs no registry of caches, and a lookup that started before an eviction never stores its (older) answer.
let generation = 0;

/**
 * Drops every cached token lookup of this process. Call it after the transaction that revoked a token, removed
 * a member or changed a role has committed (before the commit, a concurrent request could cache the old row).
 */
export function evictCachedTokens(revocation: TokenRevocation = {}): void {
  void revocation;
  generation += 1;
}

export class TokenLookupCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: TokenLookupCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? DEFAULT_TOKEN_CACHE_MAX_ENTRIES;
    this.now = options.now ?? (() => performance.now());
  }

  /** The cached lookup for this secret hash, or `load()`'s answer (cached when it is a live token). */
  async lookup(secretHash: Uint8Array, load: () => Promise<TokenLookup | null>): Promise<TokenLookup | null> {
    if (this.ttlMs <= 0) return load();
    const key = Buffer.from(secretHash).toString('base64');
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      if (hit.generation === generation && this.now() - hit.storedAt < this.ttlMs) return hit.lookup;
      this.entries.delete(key);
    }
    const startedAt = generation;
    const found = await load();
    // Unknown and revoked tokens are not cached: they cost what they cost today, and nothing a caller can
    // guess fills the cache.
    if (found !== null && found.revokedAt === null && startedAt === generation) this.store(key, found);
    return found;
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, lookup: TokenLookup): void {
    if (this.entries.size >= this.maxEntries) {
      // Oldest first (a Map iterates in insertion order): bounded memory, whatever the number of tokens.
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { lookup, storedAt: this.now(), generation });
  }
}
