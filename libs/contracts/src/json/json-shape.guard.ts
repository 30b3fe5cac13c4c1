// The shape of a parsed JSON value that outside input may have before anything walks it recursively. JSON.parse
// itself is iterative, but JSON.stringify, structured clone, schema validators and most tree walks recurse: a
// value nested a few thousand levels deep overflows their stack wherever it lands (a definition document in the
// API, a tool's arguments on their way to an upstream). One judge, iterative and linear in the value's size, so
// every input that nests is bounded the same way.

export interface JsonShapeBounds {
  /** Containers may nest at most this deep (the root container is depth 1). */
  readonly maxDepth: number;
  /** An object may hold at most this many keys, an array this many items. Absent: unbounded. */
  readonly maxMembers?: number;
}

/** One step of the path to a problem: an object's key (and its position among the keys) or an array's index. */
export interface JsonPathStep {
  readonly key: string | number;
  /** The key's position in its object (for an array, the index again). */
  readonly index: number;
}

/** Which bound the value is past, the bound itself, and where (the container past it). */
export type JsonShapeProblem =
  | { readonly bound: 'depth'; readonly limit: number; readonly path: readonly JsonPathStep[] }
  | { readonly bound: 'members'; readonly limit: number; readonly path: readonly JsonPathStep[] };

interface Node {
  readonly parent: Node | null;
  readonly step: JsonPathStep;
}

interface Pending {
  readonly value: object;
  readonly depth: number;
  readonly node: Node | null;
}

function pathOf(node: Node | null): JsonPathStep[] {
  const path: JsonPathStep[] = [];
  for (let at = node; at; at = at.parent) path.push(at.step);
  return path.reverse();
}

/**
 * The first bound a parsed JSON value is past, or null. Iterative (a hostile depth cannot exhaust the stack),
 * linear in the value's size, and a path is built only for the container it reports. Containers are visited
 * depth-first, keys in their own order.
 */
export function findJsonShapeProblem(value: unknown, bounds: JsonShapeBounds): JsonShapeProblem | null {
  if (typeof value !== 'object' || value === null) return null;
  const { maxDepth, maxMembers = Number.POSITIVE_INFINITY } = bounds;
  if (maxDepth < 1) return { bound: 'depth', limit: maxDepth, path: [] };
  const pending: Pending[] = [{ value, depth: 1, node: null }];
  while (pending.length > 0) {
    const { value: current, depth, node } = pending.pop() as Pending;
    const isArray = Array.isArray(current);
    const keys = isArray ? null : Object.keys(current);
    const count = isArray ? current.length : (keys as string[]).length;
    if (count > maxMembers) return { bound: 'members', limit: maxMembers, path: pathOf(node) };
    for (let i = 0; i < count; i += 1) {
      const key = isArray ? i : ((keys as string[])[i] as string);
      const child: unknown = (current as Record<string | number, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      const childNode: Node = { parent: node, step: { key, index: i } };
      if (depth + 1 > maxDepth) return { bound: 'depth', limit: maxDepth, path: pathOf(childNode) };
      pending.push({ value: child, depth: depth + 1, node: childNode });
    }
  }
  return null;
}
