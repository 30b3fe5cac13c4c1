// Which environment variable NAMES a server definition may set for a stdio child: an allowlist the operator writes
// per pool (WORKER_POOLS `childEnvKeys`), which a tenant's HostPolicy may only narrow. A denylist cannot do this
// job: every runtime, package manager, loader and shell reads some environment variable as configuration (npm
// turns any `npm_config_<key>` into config, `node-options` included), and a new one appears with every release.
// So a name is refused unless an entry names it.
//
// An entry is an exact POSIX name (`GITHUB_TOKEN`) or a prefix written with a trailing `*` (`MYCORP_*`: the part
// before `*` is at least two characters, a valid name start, and ends with `_`, so `MY*` cannot reach
// `MYSQL_PWD`). Names are compared exactly, case included: on POSIX `Npm_Config_X` is a different variable from
// `NPM_CONFIG_X`, and npm reads both; an allowlist of upper-case names allows neither unless it names it.

/** A POSIX-style environment variable name (the definition decoder's rule). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A prefix entry: a name start of two or more characters ending with `_`, then `*`. */
const PREFIX_ENTRY = /^[A-Za-z_][A-Za-z0-9_]*_\*$/;
const MAX_ENTRY_LENGTH = 256;

/**
 * The names the spawner sets itself for every child (the MCP SDK's DEFAULT_INHERITED_ENV_VARS): PATH is the
 * operator's search path, HOME the child's working directory, the rest empty. No entry may cover one, and the
 * check refuses them whatever a list says.
 */
export const SPAWNER_OWNED_ENV_KEYS: readonly string[] = Object.freeze([
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
]);
const SPAWNER_OWNED = new Set(SPAWNER_OWNED_ENV_KEYS);

/**
 * Used when a pool's config names no `childEnvKeys`: one neutral prefix and the names MCP servers conventionally
 * take that only the server itself reads (no runtime, package manager, loader or shell reads any of them as
 * configuration; docs/decisions/0127-child-environment-allowlist.md justifies each).
 */
export const DEFAULT_CHILD_ENV_KEYS: readonly string[] = Object.freeze([
  'MCP_*',
  'API_KEY',
  'API_TOKEN',
  'LOG_LEVEL',
  'GITHUB_TOKEN',
  'GITHUB_PERSONAL_ACCESS_TOKEN',
  'GITLAB_PERSONAL_ACCESS_TOKEN',
  'BRAVE_API_KEY',
  'SLACK_BOT_TOKEN',
  'SLACK_TEAM_ID',
]);

export type ChildEnvEntryProblem = 'invalid_entry' | 'covers_spawner_owned_key';

/** What is wrong with one allowlist entry, or null when it is a valid entry (operator or tenant). */
export function childEnvEntryProblem(entry: string): ChildEnvEntryProblem | null {
  if (entry.length === 0 || entry.length > MAX_ENTRY_LENGTH) return 'invalid_entry';
  if (!ENV_NAME.test(entry) && !PREFIX_ENTRY.test(entry)) return 'invalid_entry';
  if (SPAWNER_OWNED_ENV_KEYS.some((key) => entryAllows(entry, key))) return 'covers_spawner_owned_key';
  return null;
}

const isPrefixEntry = (entry: string): boolean => entry.endsWith('*');

/** Whether one entry allows one name: the exact name, or a name that starts with the prefix. */
function entryAllows(entry: string, key: string): boolean {
  if (!isPrefixEntry(entry)) return entry === key;
  return key.startsWith(entry.slice(0, -1));
}

/**
 * Whether a definition may set `key` for a stdio child under `allowlist`: a valid name, not one the spawner sets,
 * and allowed by a valid entry (an invalid entry allows nothing, whoever wrote it).
 */
export function isChildEnvKeyAllowed(key: string, allowlist: readonly string[]): boolean {
  if (!ENV_NAME.test(key) || SPAWNER_OWNED.has(key)) return false;
  return allowlist.some((entry) => childEnvEntryProblem(entry) === null && entryAllows(entry, key));
}

/** The first key (in the given order) the allowlist does not allow, or null when it allows every one. */
export function firstRefusedChildEnvKey(
  keys: readonly string[],
  allowlist: readonly string[],
): string | null {
  return keys.find((key) => !isChildEnvKeyAllowed(key, allowlist)) ?? null;
}

/**
 * Whether every name a (tenant) entry allows is allowed by some (pool) entry: an exact name by an entry that
 * allows it; a prefix by a pool prefix it starts with (an exact pool name covers no prefix: the prefix would
 * allow names the pool never listed).
 */
export function isChildEnvEntryCovered(entry: string, allowlist: readonly string[]): boolean {
  if (childEnvEntryProblem(entry) !== null) return false;
  if (!isPrefixEntry(entry)) return isChildEnvKeyAllowed(entry, allowlist);
  const prefix = entry.slice(0, -1);
  return allowlist.some(
    (outer) =>
      childEnvEntryProblem(outer) === null && isPrefixEntry(outer) && prefix.startsWith(outer.slice(0, -1)),
  );
}

/**
 * One pool's effective allowlist for one tenant: the pool's own when the tenant chose none (null), else the
 * tenant's entries this pool covers (the tenant may have written entries for another of its pools).
 */
export function narrowChildEnvKeys(
  tenantEntries: readonly string[] | null,
  poolEntries: readonly string[],
): string[] {
  if (tenantEntries === null) return [...poolEntries];
  return tenantEntries.filter((entry) => isChildEnvEntryCovered(entry, poolEntries));
}
