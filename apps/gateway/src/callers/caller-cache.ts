import { createHash } from 'node:crypto';
import type { RevocationEvent } from '@gatehouse/contracts';
import type { CallerCheck, GatewayCaller } from './caller.js';

// Introspected callers, held briefly so a warm session's requests cost no API round trip (the hot path
// does no database work and no API call). Keyed by the sha256 of the token and the workspace (the token
// itself is never held). Fresh within three bounds: a ledger event naming the token, its user or its tenant
// evicts at once (token_revoked, member_changed; a gap in the ledger clears everything); the token's own
// expiry is checked on every hit; anything else (a change that writes no event) at most `ttlMs`, and the call
// that finds it older is not held up: up to twice `ttlMs` it is answered from memory while one introspection
// revalidates behind it (decision 0111), whose refusal evicts it; older than that, the check waits for the
// API. Only active callers are cached: nothing a caller can guess fills it. Concurrent misses for one key
// share one introspection, but only within one generation: every caller event and every clear bumps it, and
// an introspection started before the bump (whose answer may predate a revocation the gateway has since heard
// of) neither fills the cache nor answers a request that arrived after it; that request asks the API again.
// Pending introspections are keyed by token hash, so which token an event names is unknown until they answer:
// any caller event counts for all of them.
//
// All of that rests on the revocation holder hearing every event. While it does not (not started yet, or its
// stream lost and not caught up again: `revocationsLive` false), the cache fails closed (decision 0129): nothing
// held is served, no introspection is shared, nothing is stored; every check asks the API, so a revocation is
// honoured at once even then. What was held stays, and is served again once the holder has caught up (which evicts
// what was revoked meanwhile) or dropped by its revalidation.

export interface CallerCacheOptions {
  readonly ttlMs: number;
  readonly maxEntries?: number;
  /** Monotonic milliseconds. */
  readonly now?: () => number;
  /** Whether the revocation holder vouches for what is held now (default: always; the gateway passes its holder's). */
  readonly revocationsLive?: () => boolean;
}

interface Entry {
  readonly caller: GatewayCaller;
  readonly storedAt: number;
}

interface Pending {
  readonly answer: Promise<CallerCheck>;
  /** The generation it was asked in: only requests of that generation share it, only then is it stored. */
  readonly generation: number;
}

const DEFAULT_MAX_ENTRIES = 10_000;

/** The events after which a cached caller may no longer be what the API would say. */
const CALLER_EVENTS: ReadonlySet<RevocationEvent['kind']> = new Set(['token_revoked', 'member_changed']);

export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Pending>();
  private readonly maxEntries: number;
  private readonly now: () => number;
  // Bumped on every caller event and clear: an introspection started before one is neither shared nor stored.
  private generation = 0;

  constructor(private readonly options: CallerCacheOptions) {
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.now = options.now ?? (() => performance.now());
  }

  async check(
    token: string,
    workspaceId: string,
    introspect: () => Promise<CallerCheck>,
    wallClock: Date = new Date(),
  ): Promise<CallerCheck> {
    if (this.options.revocationsLive?.() === false) {
      // Fail closed: only the API's answer of now counts.
      const answer = await introspect();
      return answer.ok ? expiryChecked(answer.caller, wallClock) : answer;
    }
    const key = `${createHash('sha256').update(token).digest('base64')}:${workspaceId.toLowerCase()}`;
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      const age = this.now() - hit.storedAt;
      if (age < this.options.ttlMs) return expiryChecked(hit.caller, wallClock);
      if (age < 2 * this.options.ttlMs) {
        this.revalidate(key, introspect);
        return expiryChecked(hit.caller, wallClock);
      }
      this.entries.delete(key);
    }
    const current = this.pending.get(key);
    if (current !== undefined && current.generation === this.generation) {
      const shared = await current.answer;
      return shared.ok ? expiryChecked(shared.caller, wallClock) : shared;
    }
    const started = this.introspect(key, introspect);
    const settled = await started.answer;
    if (settled.ok && started.generation === this.generation && this.options.ttlMs > 0)
      this.store(key, settled.caller);
    return settled.ok ? expiryChecked(settled.caller, wallClock) : settled;
  }

  /** Evicts what a ledger event may have changed; returns the token ids it evicted. */
  evict(event: RevocationEvent): string[] {
    if (!CALLER_EVENTS.has(event.kind)) return [];
    this.generation += 1;
    const { tokenIds, userId } = event.subject;
    const evicted: string[] = [];
    for (const [key, { caller }] of this.entries) {
      const concerned =
        (event.tenantId === null || event.tenantId === caller.tenantId) &&
        (tokenIds === undefined || tokenIds.includes(caller.tokenId)) &&
        (userId === undefined || tokenIds !== undefined || userId === caller.userId);
      if (concerned) {
        this.entries.delete(key);
        evicted.push(caller.tokenId);
      }
    }
    return evicted;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** One introspection behind a held caller: a live answer renews it, a refusal evicts it, a failure waits. */
  private revalidate(key: string, introspect: () => Promise<CallerCheck>): void {
    if (this.pending.get(key)?.generation === this.generation) return;
    const started = this.introspect(key, introspect);
    started.answer.then(
      (settled) => {
        if (!settled.ok) this.entries.delete(key);
        else if (started.generation === this.generation) this.store(key, settled.caller);
      },
      () => undefined,
    );
  }

  /** Asks the API for `key` in this generation; it replaces (never shares) an older generation's pending ask. */
  private introspect(key: string, introspect: () => Promise<CallerCheck>): Pending {
    const started: Pending = {
      generation: this.generation,
      answer: introspect().finally(() => {
        // A newer generation's ask may have taken the slot meanwhile: it stays.
        if (this.pending.get(key) === started) this.pending.delete(key);
      }),
    };
    this.pending.set(key, started);
    return started;
  }

  private store(key: string, caller: GatewayCaller): void {
    if (this.entries.size >= this.maxEntries) {
      // Oldest first (Map keeps insertion order): a full cache costs a round trip, never memory.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { caller, storedAt: this.now() });
  }
}

function expiryChecked(caller: GatewayCaller, now: Date): CallerCheck {
  if (caller.expiresAt !== null && caller.expiresAt <= now) return { ok: false, reason: 'unauthenticated' };
  return { ok: true, caller };
}
