import { firstRefusedChildEnvKey } from './child-env-allowlist';

// Whether one pool may start one stdio server (or run one header helper) for one tenant: THE check, used at
// three moments: by the API when it admits (admission.check, catalog-refresh routing) and leases, and by
// libs/mcp-client just before it spawns (where the real-path part, which needs the filesystem, is added on top).
// Pure: the caller passes the materialized argv, cwd and env KEYS (never values: the check runs before anything
// reads them) and the pool's authority, the env allowlist included (child-env-allowlist.ts).
//
// Strings are compared exactly and never normalized: `/usr/bin/../bin/node` is not `/usr/bin/node`, because what
// the child runs is the string it is given, and a prefix check that reasoned about paths could be talked around.

/** An exact argv prefix (no globbing, no shell line). */
export type ArgvPrefix = readonly string[];

/** Whether `argv` starts with every string of `prefix`, in order (exact strings, no globbing). */
export function startsWithArgv(argv: ArgvPrefix, prefix: ArgvPrefix): boolean {
  return prefix.length <= argv.length && prefix.every((part, i) => argv[i] === part);
}

/** What a stdio child would be started with (secret argv included: never log or return these). */
export interface StdioLaunch {
  readonly argv: readonly string[];
  /** As declared; null means the authority's (first) allowed root, never the ambient process cwd. */
  readonly cwd: string | null;
  /** The env variable NAMES the definition sets (values are not read before this check passes). */
  readonly envKeys: readonly string[];
}

/** One pool's authority over stdio for one tenant. */
export interface StdioAuthorityGrant {
  /** The pool's ceiling allows stdio at all. */
  readonly stdioAllowed: boolean;
  /** Exact argv prefixes the tenant chose (its HostPolicy, already narrowed to the ceiling where known). */
  readonly commands: readonly ArgvPrefix[];
  /** The operator's ceiling for the pool: a command must fit it too, whatever the tenant's list says. */
  readonly ceiling: readonly ArgvPrefix[];
  /** Absolute directories a child's working directory must lie in (the operator's, from the ceiling). */
  readonly allowedRoots: readonly string[];
  /** The env names a definition may set: the pool's allowlist, narrowed by the tenant's HostPolicy. */
  readonly envKeys: readonly string[];
}

export type StdioRefusalReason =
  | 'stdio_not_allowed_on_pool'
  | 'nul_in_launch'
  | 'command_not_allowed'
  | 'command_outside_ceiling'
  | 'env_key_not_allowed'
  | 'cwd_outside_allowed_roots'
  | 'no_allowed_root';

export type StdioAuthority =
  /** `cwd` is where the child starts: the declared one, or the first allowed root when none was declared. */
  | { readonly ok: true; readonly cwd: string }
  /** A refused env name is named (names are not secret; the values are never read by the check). */
  | { readonly ok: false; readonly reason: 'env_key_not_allowed'; readonly key: string }
  | { readonly ok: false; readonly reason: Exclude<StdioRefusalReason, 'env_key_not_allowed'> };

const hasNul = (value: string): boolean => value.includes('\0');

export function checkStdioAuthority(launch: StdioLaunch, grant: StdioAuthorityGrant): StdioAuthority {
  if (!grant.stdioAllowed) return { ok: false, reason: 'stdio_not_allowed_on_pool' };
  // A NUL ends a C string early: the kernel would run (or enter) something other than what was compared.
  if (
    launch.argv.some(hasNul) ||
    (launch.cwd !== null && hasNul(launch.cwd)) ||
    launch.envKeys.some(hasNul)
  ) {
    return { ok: false, reason: 'nul_in_launch' };
  }
  if (launch.argv.length === 0 || !grant.commands.some((prefix) => startsWithArgv(launch.argv, prefix))) {
    return { ok: false, reason: 'command_not_allowed' };
  }
  if (!grant.ceiling.some((prefix) => startsWithArgv(launch.argv, prefix))) {
    return { ok: false, reason: 'command_outside_ceiling' };
  }
  const refusedKey = firstRefusedChildEnvKey(launch.envKeys, grant.envKeys);
  if (refusedKey !== null) return { ok: false, reason: 'env_key_not_allowed', key: refusedKey };
  if (launch.cwd === null) {
    const root = grant.allowedRoots.find((candidate) => absoluteSegments(candidate) !== null);
    return root === undefined ? { ok: false, reason: 'no_allowed_root' } : { ok: true, cwd: root };
  }
  const cwd = launch.cwd;
  if (!grant.allowedRoots.some((root) => isWithinRoot(cwd, root))) {
    return { ok: false, reason: 'cwd_outside_allowed_roots' };
  }
  return { ok: true, cwd };
}

/**
 * `path` is `root` or below it, segment by segment (`/srv/mcp-evil` is not under `/srv/mcp`). A relative path,
 * or one with `.` or `..` segments or a NUL, is under nothing: resolving it here would be a second opinion on
 * what the kernel will do with it. Repeated or trailing slashes mean nothing to the kernel and are ignored.
 */
export function isWithinRoot(path: string, root: string): boolean {
  const pathSegments = absoluteSegments(path);
  const rootSegments = absoluteSegments(root);
  if (pathSegments === null || rootSegments === null) return false;
  return startsWithArgv(pathSegments, rootSegments);
}

function absoluteSegments(path: string): string[] | null {
  if (!path.startsWith('/') || hasNul(path)) return null;
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..')) return null;
  return segments;
}

export type HeaderHelperRefusalReason =
  'header_helpers_not_allowed_on_pool' | 'nul_in_launch' | 'command_not_allowed' | 'command_outside_ceiling';

export type HeaderHelperAuthority =
  { readonly ok: true } | { readonly ok: false; readonly reason: HeaderHelperRefusalReason };

/** One pool's authority over header helpers for one tenant. */
export interface HeaderHelperGrant {
  readonly helpersAllowed: boolean;
  /** The tenant's chosen helper argv prefixes (narrowed to the ceiling where known). */
  readonly commands: readonly ArgvPrefix[];
  /** The operator's ceiling: a helper must fit it too. */
  readonly ceiling: readonly ArgvPrefix[];
}

/**
 * Whether one pool may run an http server's header helper for one tenant: the pool's ceiling allows header
 * helpers, and the helper's argv starts with one of the tenant's prefixes and one of the ceiling's. Compared
 * exactly, like stdio commands.
 */
export function checkHeaderHelperAuthority(
  helperArgv: readonly string[],
  grant: HeaderHelperGrant,
): HeaderHelperAuthority {
  if (!grant.helpersAllowed) return { ok: false, reason: 'header_helpers_not_allowed_on_pool' };
  if (helperArgv.some(hasNul)) return { ok: false, reason: 'nul_in_launch' };
  if (helperArgv.length === 0 || !grant.commands.some((prefix) => startsWithArgv(helperArgv, prefix))) {
    return { ok: false, reason: 'command_not_allowed' };
  }
  if (!grant.ceiling.some((prefix) => startsWithArgv(helperArgv, prefix))) {
    return { ok: false, reason: 'command_outside_ceiling' };
  }
  return { ok: true };
}
