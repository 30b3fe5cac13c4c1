import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UnixAccount } from './child-run-as.js';

// A child's HOME is a new, empty directory of its own, removed when the child is done. HOME is where runtimes and
// package managers look for their configuration (`.npmrc`, `.gitconfig`, `.pydistutils.cfg`, Python's user
// site-packages with its `.pth` files): a HOME shared with other children — the allowed root, say — would let one
// child leave configuration that runs code in the next, another tenant's included. Made 0700 and owned by the
// account the child runs as, so it may write there (caches); children of other accounts may not read it (children
// of one pool share its account, and so trust each other: docs/architecture/child-processes.md).

export interface PrivateHome {
  readonly path: string;
  /** Deletes the directory and what the child left in it; never throws. */
  readonly remove: () => Promise<void>;
}

export async function createPrivateHome(runAs: UnixAccount | null): Promise<PrivateHome> {
  const path = await mkdtemp(join(tmpdir(), 'gatehouse-child-home-'));
  try {
    if (runAs !== null) await chown(path, runAs.uid, runAs.gid);
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    throw error;
  }
  return {
    path,
    remove: () => rm(path, { recursive: true, force: true }).catch(() => undefined),
  };
}
