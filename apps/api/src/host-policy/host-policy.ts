// The tenant's HostPolicy as the use cases and the lease path see it (the row's JSON already parsed).

export type ArgvPrefix = readonly string[];

export interface TenantHostPolicy {
  readonly stdioCommands: readonly ArgvPrefix[];
  readonly headerHelpers: readonly ArgvPrefix[];
  readonly privateCidrs: readonly string[];
  readonly traceContextOrigins: readonly string[];
  readonly fourEyes: boolean;
  /** Env names stdio definitions may set, within the pools' lists; null: each pool's own list. */
  readonly childEnvKeys: readonly string[] | null;
}

/** A tenant that never wrote a HostPolicy asks for nothing local and no private range. */
export const EMPTY_HOST_POLICY: TenantHostPolicy = Object.freeze({
  stdioCommands: [],
  headerHelpers: [],
  privateCidrs: [],
  traceContextOrigins: [],
  fourEyes: false,
  childEnvKeys: null,
});

/** Whether `argv` starts with every string of `prefix`, in order (exact strings, no globbing). */
export function startsWithArgv(argv: ArgvPrefix, prefix: ArgvPrefix): boolean {
  return prefix.length <= argv.length && prefix.every((part, i) => argv[i] === part);
}
