// The leases a holder (the worker, the gateway) holds right now, each with what drops it: aborting a held lease
// closes its connection (and so its stdio child's process group). Dropped on a revocation that concerns the
// lease, and all at once when the holder revalidates or shuts down. No framework: the apps provide it as a value.

export type HeldLeaseFacts = {
  readonly leaseId: string;
  readonly tenantId: string;
  readonly workspaceId: string;
  readonly serverName: string;
  readonly approvalId: string;
  readonly principalUserId: string | null;
};

export type DropReason = 'revoked' | 'revalidate' | 'shutdown';

export type HeldLease = HeldLeaseFacts & {
  /** Aborted when the lease is dropped; the job closes its connection on it. */
  readonly signal: AbortSignal;
  /** Why it was dropped, once it was. */
  readonly dropped: DropReason | null;
  /** Whether the holder may still use it (the spawn-time recheck asks this). */
  readonly live: boolean;
};

class Entry implements HeldLease {
  private readonly controller = new AbortController();
  private reason: DropReason | null = null;

  constructor(readonly facts: HeldLeaseFacts) {}

  get leaseId() {
    return this.facts.leaseId;
  }
  get tenantId() {
    return this.facts.tenantId;
  }
  get workspaceId() {
    return this.facts.workspaceId;
  }
  get serverName() {
    return this.facts.serverName;
  }
  get approvalId() {
    return this.facts.approvalId;
  }
  get principalUserId() {
    return this.facts.principalUserId;
  }
  get signal() {
    return this.controller.signal;
  }
  get dropped() {
    return this.reason;
  }
  get live() {
    return this.reason === null;
  }

  drop(reason: DropReason): void {
    if (this.reason !== null) return;
    this.reason = reason;
    this.controller.abort(reason);
  }
}

export class HeldLeases {
  private readonly held = new Map<string, Entry>();

  /** Records a lease just issued; `forget` it once released. */
  hold(facts: HeldLeaseFacts): HeldLease {
    const entry = new Entry(facts);
    this.held.set(facts.leaseId, entry);
    return entry;
  }

  forget(leaseId: string): void {
    this.held.delete(leaseId);
  }

  get size(): number {
    return this.held.size;
  }

  /** Drops every held lease the predicate selects; returns how many were dropped. */
  drop(reason: DropReason, select: (lease: HeldLeaseFacts) => boolean = () => true): number {
    let dropped = 0;
    for (const entry of this.held.values()) {
      if (entry.live && select(entry.facts)) {
        entry.drop(reason);
        dropped += 1;
      }
    }
    return dropped;
  }
}
