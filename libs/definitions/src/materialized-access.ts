import type { ResolvedEntry } from './effective-entry';
import type { MaterializedDefinition } from './variable-materializer';

/**
 * A resolved entry's materialized definition holds secret values (the only thing that does). It is kept off the
 * entry's visible members, in a private class field, so serializing, logging, inspecting (even with
 * `showHidden`), spreading or structured-cloning a resolution result can never reach a secret: whoever needs the
 * values (the lease builder) asks for them deliberately with {@link materializedDefinitionOf}. (A private field
 * rather than a WeakMap: with 10,000 entries the ephemeron bookkeeping showed up in garbage collection.)
 */
class ResolvedEntryObject implements ResolvedEntry {
  readonly name: string;
  readonly source: ResolvedEntry['source'];
  readonly shadowed: ResolvedEntry['shadowed'];
  readonly status = 'resolved' as const;
  readonly fingerprint: string;
  readonly identity: ResolvedEntry['identity'];
  readonly projection: ResolvedEntry['projection'];
  readonly perUser: boolean;
  readonly variables: ResolvedEntry['variables'];
  readonly #materialized: MaterializedDefinition;

  constructor(fields: ResolvedEntry, materialized: MaterializedDefinition) {
    // Fields assigned one by one, in one order: every entry shares one object shape.
    this.name = fields.name;
    this.source = fields.source;
    this.shadowed = fields.shadowed;
    this.fingerprint = fields.fingerprint;
    this.identity = fields.identity;
    this.projection = fields.projection;
    this.perUser = fields.perUser;
    this.variables = fields.variables;
    this.#materialized = materialized;
  }

  static materializedOf(entry: object): MaterializedDefinition | undefined {
    return #materialized in entry ? (entry as ResolvedEntryObject).#materialized : undefined;
  }
}

/** A resolved entry carrying its materialized definition out of sight. */
export function createResolvedEntry(
  fields: ResolvedEntry,
  materialized: MaterializedDefinition,
): ResolvedEntry {
  return new ResolvedEntryObject(fields, materialized);
}

/** The materialized definition (secrets included) of an entry this lib resolved; undefined for any other object. */
export function materializedDefinitionOf(entry: ResolvedEntry): MaterializedDefinition | undefined {
  return ResolvedEntryObject.materializedOf(entry);
}
