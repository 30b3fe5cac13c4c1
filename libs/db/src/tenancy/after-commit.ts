import type { TenantTx } from './prisma-client';

// Work that must wait for a unit of work to commit (a relay woken to publish what the transaction appended).
// Keyed by the transaction client itself: the object Database hands to the unit of work is the one repositories
// receive, so a repository can register without knowing which Database it runs in.

const pending = new WeakMap<object, Array<() => void>>();

/** Called by Database when a unit of work starts. */
export function openAfterCommit(tx: TenantTx): void {
  pending.set(tx, []);
}

/** Called by Database once the transaction has ended: hooks of a committed one run, a rolled-back one's never. */
export function closeAfterCommit(tx: TenantTx, committed: boolean): void {
  const hooks = pending.get(tx) ?? [];
  pending.delete(tx);
  if (!committed) return;
  for (const hook of hooks) hook();
}

/**
 * Runs `hook` after the transaction of `tx` commits, and never when it rolls back. A hook must not throw (it
 * runs after the caller's work is durable; a throw would be a bug reported to nobody): errors are swallowed.
 */
export function afterCommit(tx: TenantTx, hook: () => void): void {
  const hooks = pending.get(tx);
  if (!hooks) throw new Error('afterCommit outside a unit of work of this Database');
  hooks.push(() => {
    try {
      hook();
    } catch {
      // See above: nothing to report to; the hooks are the lib's own (a wake-up), not the caller's.
    }
  });
}
