import { realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isWithinRoot } from '@gatehouse/activation';
import type { UnixAccount } from './child-run-as.js';

// A child's working directory is configuration as much as its environment: npm reads the project's `.npmrc`
// there (`node-options` becomes the NODE_OPTIONS of what npx starts), npx runs a package found in its
// `node_modules`, `python -m` imports from it first, git reads `.git/config` up the tree. A directory the child's
// account may write is one an earlier child — another definition, another tenant's — may have written, so a child
// is refused a working directory that its account can write or owns (an owner may chmod), nor any directory
// between it and its allowed root. Judged from ownership and mode bits for the account's uid and primary gid (a
// switched child keeps no supplementary groups); POSIX ACLs are not read, so roots must not rely on them.

function writableBy(account: UnixAccount, info: { uid: number; gid: number; mode: number }): boolean {
  if (info.uid === account.uid) return true;
  if (info.gid === account.gid && (info.mode & 0o020) !== 0) return true;
  return (info.mode & 0o002) !== 0;
}

/** Whether `cwd` (a real path) or any directory up to the real allowed root containing it is the account's to write. */
export async function isCwdWritableBy(
  cwd: string,
  allowedRoots: readonly string[],
  account: UnixAccount,
): Promise<boolean> {
  const root = await containingRealRoot(cwd, allowedRoots);
  if (root === null) return true;
  for (let dir = cwd; ; dir = dirname(dir)) {
    try {
      if (writableBy(account, await stat(dir))) return true;
    } catch {
      return true;
    }
    if (dir === root || dir === dirname(dir)) return false;
  }
}

async function containingRealRoot(cwd: string, allowedRoots: readonly string[]): Promise<string | null> {
  for (const root of allowedRoots) {
    const real = await realpath(root).catch(() => null);
    if (real !== null && isWithinRoot(cwd, real)) return real;
  }
  return null;
}
