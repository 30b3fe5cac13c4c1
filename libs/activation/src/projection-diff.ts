/**
 * One field that differs between two projections. `path` names object members from the root; a list is one
 * value (see {@link diffProjections}). Values are passed through exactly as the projections hold them, so a
 * masked secret stays masked and nothing here can reveal more than the projections themselves.
 */
export type ProjectionChange =
  | { readonly kind: 'added'; readonly path: readonly string[]; readonly after: unknown }
  | { readonly kind: 'removed'; readonly path: readonly string[]; readonly before: unknown }
  | {
      readonly kind: 'changed';
      readonly path: readonly string[];
      readonly before: unknown;
      readonly after: unknown;
    };

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // Object.prototype of any realm (JSON.parse, structuredClone) or a null prototype; never a class instance.
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

// Members holding `undefined` are absent, as they would be once serialized.
function presentKeys(value: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(value).filter((key) => value[key] !== undefined);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = presentKeys(a);
    return (
      keys.length === presentKeys(b).length &&
      keys.every((key) => b[key] !== undefined && sameValue(a[key], b[key]))
    );
  }
  return false;
}

function walk(before: unknown, after: unknown, path: readonly string[], out: ProjectionChange[]): void {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...presentKeys(before), ...presentKeys(after)])].sort();
    for (const key of keys) {
      const next = [...path, key];
      const had = before[key];
      const has = after[key];
      if (had === undefined) out.push({ kind: 'added', path: next, after: has });
      else if (has === undefined) out.push({ kind: 'removed', path: next, before: had });
      else walk(had, has, next, out);
    }
    return;
  }
  if (!sameValue(before, after)) out.push({ kind: 'changed', path, before, after });
}

/**
 * What changed between the last approved projection and the new one, field by field, sorted by path. Objects
 * are compared member by member; anything else, lists included, is one value: an argv with an inserted
 * argument would otherwise read as every later position changing, where the whole list before and after reads
 * plainly. Identical projections give an empty list.
 */
export function diffProjections(before: unknown, after: unknown): ProjectionChange[] {
  const out: ProjectionChange[] = [];
  walk(before, after, [], out);
  return out;
}
