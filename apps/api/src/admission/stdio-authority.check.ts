import { startsWithArgv, type ArgvPrefix } from '../host-policy/host-policy';

// Whether one pool may start one stdio server for one tenant. Pure: the caller passes the materialized argv
// and cwd and the pool's EFFECTIVE authority (tenant HostPolicy ∩ pool ceiling, effectiveHostPolicy). Strings
// are compared exactly and never normalized: `/usr/bin/../bin/node` is not `/usr/bin/node`, because what the
// child runs is the string it is given, and a prefix check that reasoned about paths could be talked around.

/** What a stdio child would be started with (secret values included: never log or return these). */
export interface StdioLaunch {
  readonly argv: readonly string[];
  readonly cwd: string | null;
}

/** One pool's authority over stdio for one tenant. */
export interface StdioAuthorityGrant {
  /** The pool's ceiling allows stdio at all. */
  readonly stdioAllowed: boolean;
  /** Exact argv prefixes the tenant chose that also fit the pool's ceiling. */
  readonly commands: readonly ArgvPrefix[];
  /** Absolute directories a child's working directory must lie in (the operator's, from the ceiling). */
  readonly allowedRoots: readonly string[];
}

export type StdioRefusalReason =
  'stdio_not_allowed_on_pool' | 'command_not_allowed' | 'cwd_outside_allowed_roots';

export type StdioAuthority =
  { readonly ok: true } | { readonly ok: false; readonly reason: StdioRefusalReason };

export function checkStdioAuthority(launch: StdioLaunch, grant: StdioAuthorityGrant): StdioAuthority {
  if (!grant.stdioAllowed) return { ok: false, reason: 'stdio_not_allowed_on_pool' };
  if (launch.argv.length === 0 || !grant.commands.some((prefix) => startsWithArgv(launch.argv, prefix))) {
    return { ok: false, reason: 'command_not_allowed' };
  }
  // No cwd: the worker starts the child in its own directory for it, which the operator chose.
  if (launch.cwd !== null && !grant.allowedRoots.some((root) => isWithinRoot(launch.cwd as string, root))) {
    return { ok: false, reason: 'cwd_outside_allowed_roots' };
  }
  return { ok: true };
}

/**
 * `path` is `root` or below it, segment by segment (`/srv/mcp-evil` is not under `/srv/mcp`). A relative path,
 * or one with `.` or `..` segments, is under nothing: resolving it here would be a second opinion on what the
 * kernel will do with it. Repeated or trailing slashes mean nothing to the kernel and are ignored.
 */
export function isWithinRoot(path: string, root: string): boolean {
  const pathSegments = absoluteSegments(path);
  const rootSegments = absoluteSegments(root);
  if (pathSegments === null || rootSegments === null) return false;
  return startsWithArgv(pathSegments, rootSegments);
}

function absoluteSegments(path: string): string[] | null {
  if (!path.startsWith('/')) return null;
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..')) return null;
  return segments;
}

export type HeaderHelperAuthority =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'header_helpers_not_allowed_on_pool' | 'command_not_allowed' };

/**
 * Whether one pool may run an http server's header helper for one tenant: the pool's ceiling allows header
 * helpers, and the helper's argv starts with one of the tenant's headerHelpers that fits that ceiling. Compared
 * exactly, like stdio commands.
 */
export function checkHeaderHelperAuthority(
  helperArgv: readonly string[],
  grant: { readonly helpersAllowed: boolean; readonly commands: readonly ArgvPrefix[] },
): HeaderHelperAuthority {
  if (!grant.helpersAllowed) return { ok: false, reason: 'header_helpers_not_allowed_on_pool' };
  if (helperArgv.length === 0 || !grant.commands.some((prefix) => startsWithArgv(helperArgv, prefix))) {
    return { ok: false, reason: 'command_not_allowed' };
  }
  return { ok: true };
}
