// Who a child process (stdio server or header helper) runs as. A root process never hands a child root: the
// pool's runAs when it names one, else the host's unprivileged account; with neither, the child is refused. A
// process that is not root cannot switch, and its children run as its own (unprivileged) user.

export interface UnixAccount {
  readonly uid: number;
  readonly gid: number;
}

export interface RunAsOptions {
  /** Whether this process may switch uid/gid (it runs as root). Default: asks the OS. */
  readonly canSwitchUser?: boolean;
  /** The account a child runs as when the pool names none (CHILD_USER); null or absent: such a child is refused. */
  readonly unprivilegedUser?: UnixAccount | null;
}

export type ChildRunAs =
  | { readonly ok: true; readonly runAs: UnixAccount | null }
  | { readonly ok: false; readonly reason: 'run_as_required' };

export function childRunAs(poolRunAs: UnixAccount | null, options: RunAsOptions): ChildRunAs {
  const canSwitch = options.canSwitchUser ?? process.getuid?.() === 0;
  if (!canSwitch) return { ok: true, runAs: null };
  const account = poolRunAs ?? options.unprivilegedUser ?? null;
  if (account === null || account.uid === 0 || account.gid === 0)
    return { ok: false, reason: 'run_as_required' };
  return { ok: true, runAs: account };
}

/**
 * The run-as options of a worker or gateway from its CHILD_USER: `self` keeps children as this process's user
 * (development and tests; the config refuses it in production); an account is the fallback outside production,
 * while in production a root process refuses a child whose pool names no runAs.
 */
export function runAsOptionsOf(childUser: UnixAccount | 'self', nodeEnv: string): RunAsOptions {
  if (childUser === 'self') return { canSwitchUser: false };
  return { unprivilegedUser: nodeEnv === 'production' ? null : childUser };
}
