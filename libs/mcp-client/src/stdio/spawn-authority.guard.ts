import { realpath, stat } from 'node:fs/promises';
import { checkStdioAuthority, isWithinRoot, type StdioRefusalReason } from '@gatehouse/activation';
import type { ProcessAuthority } from '@gatehouse/contracts';

// The spawn-time moment of the stdio authority check: the same pure check the API ran at lease time (from
// @gatehouse/activation), then what only the filesystem can say: the working directory exists, is a directory,
// and its real path (symlinks resolved) is still inside the real path of an allowed root. Run immediately
// before spawning; it narrows, but cannot close, the window for a concurrent replacement of the directory.

export type SpawnRefusalReason = StdioRefusalReason | 'cwd_not_a_directory' | 'cwd_escapes_root';

export type SpawnAuthority =
  | { readonly ok: true; readonly cwd: string }
  /** The env NAME refused is named; values are never read by the check. */
  | { readonly ok: false; readonly reason: 'env_key_not_allowed'; readonly key: string }
  | { readonly ok: false; readonly reason: Exclude<SpawnRefusalReason, 'env_key_not_allowed'> };

export interface SpawnLaunch {
  readonly argv: readonly string[];
  readonly cwd: string | null;
  readonly envKeys: readonly string[];
}

export async function checkSpawnAuthority(
  launch: SpawnLaunch,
  authority: Pick<ProcessAuthority, 'commands' | 'ceiling' | 'allowedRoots' | 'envKeys'>,
): Promise<SpawnAuthority> {
  const lexical = checkStdioAuthority(launch, { stdioAllowed: true, ...authority });
  if (!lexical.ok) return lexical;
  const realCwd = await realDirectory(lexical.cwd);
  if (realCwd === null) return { ok: false, reason: 'cwd_not_a_directory' };
  for (const root of authority.allowedRoots) {
    if (!isWithinRoot(lexical.cwd, root)) continue;
    const realRoot = await realDirectory(root);
    if (realRoot !== null && isWithinRoot(realCwd, realRoot)) return { ok: true, cwd: realCwd };
  }
  return { ok: false, reason: 'cwd_escapes_root' };
}

/** The real path of an existing directory, or null (missing, not a directory, unreadable). */
async function realDirectory(path: string): Promise<string | null> {
  try {
    const real = await realpath(path);
    return (await stat(real)).isDirectory() ? real : null;
  } catch {
    return null;
  }
}
