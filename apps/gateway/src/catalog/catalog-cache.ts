import type { RevocationEvent } from '@gatehouse/contracts';
import { toolPolicyOf, type ToolPolicy } from './tool-policy.js';
import type { CatalogRead } from './workspace-catalog.client.js';

// The catalog lease of each (workspace, principal) the gateway serves, with the one tool policy built from it.
// Served from memory for `ttlMs`, then revalidated with its ETag (a 304 keeps the policy as it is): up to twice
// `ttlMs` the held policy is still served while that one revalidation runs behind it, so a warm tools/call never
// waits for the API (decision 0111); older than that (the API unreachable), the next call waits for the answer.
// Dropped at once by a ledger event of its tenant that may concern the workspace (an approval revoked, a
// definition changed, ...), so a revoked server is gone from the next tools/list and refused by the next
// tools/call. Concurrent misses share one read.

export interface CatalogCacheOptions {
  readonly ttlMs: number;
  readonly now?: () => number;
}

export type PolicyRead =
  { readonly ok: true; readonly policy: ToolPolicy } | { readonly ok: false; readonly status: number };

interface Entry {
  readonly tenantId: string;
  readonly workspaceId: string;
  readonly policy: ToolPolicy;
  readonly etag: string | null;
  readonly checkedAt: number;
}

export type CatalogReader = (etag: string | null) => Promise<CatalogRead>;

export class CatalogCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<PolicyRead>>();
  private readonly now: () => number;
  private generation = 0;

  constructor(private readonly options: CatalogCacheOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  policyFor(
    target: { readonly tenantId: string; readonly workspaceId: string; readonly principal: string | null },
    read: CatalogReader,
  ): Promise<PolicyRead> {
    const key = `${target.workspaceId}:${target.principal ?? ''}`;
    const held = this.entries.get(key);
    const age = held === undefined ? Infinity : this.now() - held.checkedAt;
    if (held !== undefined && age < this.options.ttlMs)
      return Promise.resolve({ ok: true, policy: held.policy });
    let pending = this.pending.get(key);
    if (pending === undefined) {
      pending = this.load(key, target, held, read).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    if (held !== undefined && age < 2 * this.options.ttlMs) {
      // Revalidating behind the held policy: its failure is the next caller's to see, past twice the TTL.
      pending.catch(() => undefined);
      return Promise.resolve({ ok: true, policy: held.policy });
    }
    return pending;
  }

  /** Drops the catalogs a ledger event may have changed; returns the workspaces dropped. */
  invalidate(event: RevocationEvent): string[] {
    this.generation += 1;
    const dropped: string[] = [];
    for (const [key, entry] of this.entries) {
      if (event.tenantId !== null && event.tenantId !== entry.tenantId) continue;
      const workspace = event.subject.workspaceId;
      if (workspace !== undefined && workspace !== entry.workspaceId) continue;
      this.entries.delete(key);
      dropped.push(entry.workspaceId);
    }
    return dropped;
  }

  /** Drops the catalogs of one workspace (an upstream said its lists changed). */
  invalidateWorkspace(workspaceId: string): void {
    this.generation += 1;
    for (const [key, entry] of this.entries) if (entry.workspaceId === workspaceId) this.entries.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private async load(
    key: string,
    target: { readonly tenantId: string; readonly workspaceId: string },
    held: Entry | undefined,
    read: CatalogReader,
  ): Promise<PolicyRead> {
    const startedAt = this.generation;
    const answer = await read(held?.etag ?? null);
    if (!answer.ok) return { ok: false, status: answer.status };
    const policy = 'notModified' in answer ? held?.policy : toolPolicyOf(answer.catalog);
    if (policy === undefined) return { ok: false, status: 502 };
    // An invalidation while reading: the answer may predate the change, so it is used once and not kept.
    if (startedAt === this.generation) {
      this.entries.set(key, {
        tenantId: target.tenantId,
        workspaceId: target.workspaceId,
        policy,
        etag: 'notModified' in answer ? (held?.etag ?? null) : answer.etag,
        checkedAt: this.now(),
      });
    }
    return { ok: true, policy };
  }
}
