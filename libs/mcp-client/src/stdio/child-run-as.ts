// Who a child process (stdio server or header helper) runs as. A child never runs as root, and in production never
// as the process that starts it (a child sharing the worker's or gateway's account can read its environment —
// its API token — through /proc, and its files). A root process runs a child as the pool's runAs when it names
// one, else as the host's unprivileged account; with neither, the child is refused. A process that cannot switch
// accounts runs children as itself only where that is allowed (development and tests).

export interface UnixAccount {
  readonly uid: number;
  readonly gid: number;
}

export interface RunAsOptions {
  /** Whether this process may switch uid/gid (its effective uid is root). Default: asks the OS. */
  readonly canSwitchUser?: boolean;
  /** The account a child runs as when the pool names none (CHILD_USER); null or absent: such a child is refused. */
  readonly unprivilegedUser?: UnixAccount | null;
  /** A child must run as an account other than this process's (production): one that cannot switch is refused. */
  readonly requireSeparateAccount?: boolean;
}

export type ChildRunAs =
  | { readonly ok: true; readonly runAs: UnixAccount | null }
  | { readonly ok: false; readonly reason: 'run_as_required' };

export function childRunAs(poolRunAs: UnixAccount | null, options: RunAsOptions): ChildRunAs {
  const canSwitch = options.canSwitchUser ?? process.geteuid?.() === 0;
  if (!canSwitch) {
    return options.requireSeparateAccount === true
      ? { ok: false, reason: 'run_as_required' }
      : { ok: true, runAs: null };
  }
  const account = poolRunAs ?? options.unprivilegedUser ?? null;
  if (account === null || account.uid === 0 || account.gid === 0)
    return { ok: false, reason: 'run_as_required' };
  return { ok: true, runAs: account };
}

/**
 * The run-as options of a worker or gateway from its CHILD_USER and NODE_ENV. Production: a child runs as the
 * pool's runAs or not at all (a process that cannot switch accounts runs no child). Elsewhere: CHILD_USER is the
 * fallback account, and `self` keeps children as this process's user (the config refuses it in production).
 */
export function runAsOptionsOf(childUser: UnixAccount | 'self', nodeEnv: string): RunAsOptions {
  if (nodeEnv === 'production') return { unprivilegedUser: null, requireSeparateAccount: true };
  if (childUser === 'self') return { canSwitchUser: false };
  return { unprivilegedUser: childUser };
}
