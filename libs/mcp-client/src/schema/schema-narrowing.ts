// Narrowing, not refusing, third-party tool schemas (seed 000's design decision; decision 0045).
//
// A tool's inputSchema is written by the server. Gatehouse enforces a fixed subset of JSON Schema (see
// ENFORCED below). A keyword outside it is dropped, never the property that carries it: the dropped keyword's
// subschema is in effect replaced by an accept-anything node, so the narrowed schema accepts every value the
// server's schema accepts (it may accept more, never less). `required` is carried through untouched, everything in
// the subset is enforced at every depth (nested objects, array items), and every dropped path is reported once in
// the result, because narrowing is a pure function of a schema that does not change.

/** A JSON Schema in Gatehouse's enforced subset: only what {@link narrowInputSchema} produced. */
export type NarrowedNode = boolean | { readonly [keyword: string]: unknown };

declare const narrowedBrand: unique symbol;

/** The narrowed root: always an object schema. Branded so only the narrower's output reaches the checker. */
export type NarrowedInputSchema = { readonly type: 'object'; readonly [keyword: string]: unknown } & {
  readonly [narrowedBrand]: true;
};

export type NarrowingReason =
  /** A keyword outside the enforced subset (e.g. `pattern`, `not`, `if`, `patternProperties`). */
  | 'unsupported_keyword'
  /** An enforced keyword whose value is not of the kind JSON Schema gives it (`minLength: "3"`). */
  | 'malformed_keyword'
  /** Enforcing this keyword alone would refuse values the server accepts, once another keyword was dropped. */
  | 'depends_on_dropped'
  /** `oneOf` over a narrowed branch: kept as `anyOf` (exactly-one cannot be judged over accept-anything). */
  | 'one_of_widened'
  /** Assertions beside a `$ref`: drafts disagree on them, so only the target is enforced. */
  | 'ref_sibling'
  /** A `$ref` that is not a local JSON pointer into this schema, or points at nothing. */
  | 'unresolvable_ref'
  /** A `$ref` reached again inside its own target. */
  | 'recursive_ref'
  /** A subschema that is not a schema (neither an object nor a boolean). */
  | 'not_a_schema'
  /** Nested deeper than {@link MAX_SCHEMA_DEPTH}. */
  | 'too_deep'
  /** More than {@link MAX_SCHEMA_NODES} subschemas (after `$ref` inlining). */
  | 'too_large';

export interface DroppedPath {
  /** JSON pointer into the server's schema, as reached from its root (`$ref` targets appear where they are used). */
  readonly path: string;
  readonly reason: NarrowingReason;
}

export interface NarrowingResult {
  readonly schema: NarrowedInputSchema;
  /** Every dropped path, once; at most {@link MAX_REPORTED_DROPS}. */
  readonly dropped: readonly DroppedPath[];
  /** How many further drops were not listed. */
  readonly droppedNotListed: number;
}

export const MAX_SCHEMA_DEPTH = 32;
export const MAX_SCHEMA_NODES = 5_000;
export const MAX_REPORTED_DROPS = 64;

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

/** Kept for the model's benefit, never enforced. */
const KEPT_ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'format',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
/** Dropped without a report: they assert nothing. `$defs`/`definitions` are consumed through `$ref`. */
const SILENT_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$comment',
  '$defs',
  'definitions',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
]);

type Checker = (value: unknown) => boolean;
const nonNegativeInteger: Checker = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const finiteNumber: Checker = (v) => typeof v === 'number' && Number.isFinite(v);

/** Enforced keywords whose value is plain data (applicators are handled one by one below). */
const DATA_KEYWORDS: ReadonlyMap<string, Checker> = new Map<string, Checker>(
  Object.entries({
    type: (v: unknown) =>
      typeof v === 'string'
        ? JSON_TYPES.has(v)
        : Array.isArray(v) &&
          v.length > 0 &&
          v.every((t) => typeof t === 'string' && JSON_TYPES.has(t)) &&
          new Set(v).size === v.length,
    enum: (v: unknown) => Array.isArray(v) && v.length > 0,
    const: () => true,
    required: (v: unknown) => Array.isArray(v) && v.every((k) => typeof k === 'string'),
    minLength: nonNegativeInteger,
    maxLength: nonNegativeInteger,
    minItems: nonNegativeInteger,
    maxItems: nonNegativeInteger,
    minProperties: nonNegativeInteger,
    maxProperties: nonNegativeInteger,
    uniqueItems: (v: unknown) => typeof v === 'boolean',
    minimum: finiteNumber,
    maximum: finiteNumber,
    // The draft-4 boolean form changes what `minimum` means: it is malformed here, and dropped.
    exclusiveMinimum: finiteNumber,
    exclusiveMaximum: finiteNumber,
    multipleOf: (v: unknown) => finiteNumber(v) && (v as number) > 0,
  }),
);

const APPLICATORS = new Set(['properties', 'additionalProperties', 'items', 'anyOf', 'allOf', 'oneOf']);

/** Keywords whose evaluation depends on another keyword: drop the first, and these go too. */
const DEPENDENTS: ReadonlyMap<string, readonly string[]> = new Map([
  ['patternProperties', ['additionalProperties']],
  ['prefixItems', ['items']],
]);

interface Walk {
  readonly root: Record<string, unknown>;
  readonly dropped: Map<string, NarrowingReason>;
  nodes: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const escapePointer = (segment: string) =>
  segment.includes('~') || segment.includes('/') ? segment.replace(/~/g, '~0').replace(/\//g, '~1') : segment;
const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

function drop(walk: Walk, path: string, reason: NarrowingReason): void {
  if (!walk.dropped.has(path)) walk.dropped.set(path, reason);
}

function resolveLocalRef(root: Record<string, unknown>, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const segment = unescapePointer(decodeURIComponent(raw));
    if (Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(segment)) at = at[Number(segment)];
    else if (isRecord(at) && Object.prototype.hasOwnProperty.call(at, segment)) at = at[segment];
    else return undefined;
  }
  return at;
}

function acceptAnything(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['title', 'description']) if (typeof node[key] === 'string') out[key] = node[key];
  return out;
}

function narrowNode(
  walk: Walk,
  node: unknown,
  path: string,
  depth: number,
  refs: readonly string[],
): { node: NarrowedNode; narrowed: boolean } {
  walk.nodes += 1;
  if (typeof node === 'boolean') return { node, narrowed: false };
  if (!isRecord(node)) {
    drop(walk, path, 'not_a_schema');
    return { node: {}, narrowed: true };
  }
  if (walk.nodes > MAX_SCHEMA_NODES) {
    drop(walk, path, 'too_large');
    return { node: acceptAnything(node), narrowed: true };
  }
  if (depth > MAX_SCHEMA_DEPTH) {
    drop(walk, path, 'too_deep');
    return { node: acceptAnything(node), narrowed: true };
  }
  if ('$ref' in node) return narrowRef(walk, node, path, depth, refs);

  const out: Record<string, unknown> = {};
  let narrowed = false;
  let skip: Set<string> | undefined;
  const keys = Object.keys(node);
  for (const key of keys) {
    const deps = DEPENDENTS.get(key);
    if (deps === undefined) continue;
    skip ??= new Set();
    for (const dep of deps) {
      if (Object.prototype.hasOwnProperty.call(node, dep)) {
        drop(walk, `${path}/${dep}`, 'depends_on_dropped');
        skip.add(dep);
      }
    }
  }
  // draft-07 tuple `items` (an array): dropped (its `additionalItems` is dropped as unsupported on its own).
  if (Array.isArray(node.items)) {
    drop(walk, `${path}/items`, 'unsupported_keyword');
    (skip ??= new Set()).add('items');
    narrowed = true;
  }

  for (const key of keys) {
    if (skip?.has(key)) continue;
    const value = node[key];
    if (KEPT_ANNOTATIONS.has(key)) {
      out[key] = value;
      continue;
    }
    if (SILENT_KEYWORDS.has(key) || key.startsWith('x-')) continue;
    const check = DATA_KEYWORDS.get(key);
    if (check !== undefined) {
      if (check(value)) out[key] = value;
      else {
        drop(walk, `${path}/${key}`, 'malformed_keyword');
        narrowed = true;
      }
    } else if (APPLICATORS.has(key)) {
      const applied = narrowApplicator(walk, key, value, `${path}/${key}`, depth, refs);
      if (applied === null) {
        narrowed = true;
        continue;
      }
      out[applied.key] = applied.value;
      narrowed ||= applied.narrowed;
    } else {
      drop(walk, `${path}/${escapePointer(key)}`, 'unsupported_keyword');
      narrowed = true;
    }
  }
  return { node: out, narrowed };
}

function narrowApplicator(
  walk: Walk,
  key: string,
  value: unknown,
  at: string,
  depth: number,
  refs: readonly string[],
): { key: string; value: unknown; narrowed: boolean } | null {
  switch (key) {
    case 'properties': {
      if (!isRecord(value)) {
        drop(walk, at, 'malformed_keyword');
        return null;
      }
      const props: Record<string, NarrowedNode> = {};
      let narrowed = false;
      for (const [name, sub] of Object.entries(value)) {
        const r = narrowNode(walk, sub, `${at}/${escapePointer(name)}`, depth + 1, refs);
        Object.defineProperty(props, name, {
          value: r.node,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        narrowed ||= r.narrowed;
      }
      return { key, value: props, narrowed };
    }
    case 'additionalProperties':
    case 'items': {
      const r = narrowNode(walk, value, at, depth + 1, refs);
      return { key, value: r.node, narrowed: r.narrowed };
    }
    default: {
      // anyOf / allOf / oneOf
      if (!Array.isArray(value) || value.length === 0) {
        drop(walk, at, 'malformed_keyword');
        return null;
      }
      const branches = value.map((sub, i) => narrowNode(walk, sub, `${at}/${i}`, depth + 1, refs));
      const narrowed = branches.some((b) => b.narrowed);
      if (key === 'oneOf' && narrowed) {
        drop(walk, at, 'one_of_widened');
        return { key: 'anyOf', value: branches.map((b) => b.node), narrowed };
      }
      return { key, value: branches.map((b) => b.node), narrowed };
    }
  }
}

function narrowRef(
  walk: Walk,
  node: Record<string, unknown>,
  path: string,
  depth: number,
  refs: readonly string[],
): { node: NarrowedNode; narrowed: boolean } {
  const ref = node.$ref;
  const at = `${path}/$ref`;
  if (typeof ref !== 'string') {
    drop(walk, at, 'malformed_keyword');
    return { node: acceptAnything(node), narrowed: true };
  }
  if (refs.includes(ref)) {
    drop(walk, at, 'recursive_ref');
    return { node: acceptAnything(node), narrowed: true };
  }
  const target = resolveLocalRef(walk.root, ref);
  if (target === undefined) {
    drop(walk, at, 'unresolvable_ref');
    return { node: acceptAnything(node), narrowed: true };
  }
  let narrowed = false;
  const asserting = Object.keys(node).filter(
    (k) => k !== '$ref' && !KEPT_ANNOTATIONS.has(k) && !SILENT_KEYWORDS.has(k) && !k.startsWith('x-'),
  );
  if (asserting.length > 0) {
    for (const k of asserting) drop(walk, `${path}/${escapePointer(k)}`, 'ref_sibling');
    narrowed = true;
  }
  const inner = narrowNode(walk, target, path, depth + 1, [...refs, ref]);
  if (typeof inner.node === 'object') {
    const merged: Record<string, unknown> = { ...inner.node };
    for (const k of ['title', 'description']) if (typeof node[k] === 'string') merged[k] = node[k];
    return { node: merged, narrowed: narrowed || inner.narrowed };
  }
  return { node: inner.node, narrowed: narrowed || inner.narrowed };
}

/**
 * Narrows one tool's inputSchema to the enforced subset. Pure and total: any input gives an object schema (an
 * input that is not an object schema at all narrows to `{ type: 'object' }`, reported at `#`).
 */
export function narrowInputSchema(inputSchema: unknown): NarrowingResult {
  const root = isRecord(inputSchema) ? inputSchema : {};
  const walk: Walk = { root, dropped: new Map(), nodes: 0 };
  const narrowed = isRecord(inputSchema)
    ? narrowNode(walk, inputSchema, '#', 0, [])
    : (drop(walk, '#', 'not_a_schema'), { node: {}, narrowed: true });
  const node = typeof narrowed.node === 'object' ? { ...narrowed.node } : {};
  // The root is an object schema whatever the narrowing did: `required` is carried through untouched.
  if (node.type !== 'object') {
    if ('type' in node) drop(walk, '#/type', 'malformed_keyword');
    node.type = 'object';
  }
  const all = [...walk.dropped].map(([path, reason]) => ({ path, reason }));
  return {
    schema: node as unknown as NarrowedInputSchema,
    dropped: all.slice(0, MAX_REPORTED_DROPS),
    droppedNotListed: Math.max(0, all.length - MAX_REPORTED_DROPS),
  };
}
