import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/client/stdio';

// The whole environment a child (stdio server or header helper) starts with: nothing inherited. Every key the
// SDK would merge in by default (HOME LOGNAME PATH SHELL TERM USER) is set explicitly, so none can leak from
// the worker; PATH is the operator's search path, HOME the child's own private directory (private-home.ts), the
// rest empty. The
// definition's env (its names already held to the pool's allowlist, which never allows these) comes first and
// the baseline after it, so even a name that slipped through could not replace what the spawner sets.

export interface ChildEnvironmentInput {
  /** The operator's PATH for children (config, never the worker's own environment). */
  readonly searchPath: string;
  /** The child's own, empty HOME (never a directory another child shares). */
  readonly home: string;
  /** The definition's materialized env (keys already checked). */
  readonly env: Readonly<Record<string, string>>;
}

export function childEnvironment(input: ChildEnvironmentInput): Record<string, string> {
  const baseline: Record<string, string> = {};
  for (const key of DEFAULT_INHERITED_ENV_VARS) baseline[key] = '';
  baseline['PATH'] = input.searchPath;
  baseline['HOME'] = input.home;
  return { ...input.env, ...baseline };
}
