import type { ResolvedEntry } from './effective-entry';
import type { MaterializedDefinition } from './variable.materializer';

/**
 * A resolved entry's materialized definition holds secret values (the only thing that does). It is kept off the
 * entry, in a module-private WeakMap, so serializing, logging or inspecting a resolution result can never reach a
 * secret: whoever needs the values (the lease builder) asks for them by name, deliberately.
 */
const materialized = new WeakMap<ResolvedEntry, MaterializedDefinition>();

export function attachMaterialized(entry: ResolvedEntry, definition: MaterializedDefinition): void {
  materialized.set(entry, definition);
}

/** The materialized definition (secrets included) of an entry this lib resolved; undefined for any other object. */
export function materializedDefinitionOf(entry: ResolvedEntry): MaterializedDefinition | undefined {
  return materialized.get(entry);
}
