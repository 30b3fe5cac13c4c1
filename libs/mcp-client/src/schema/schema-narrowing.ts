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
  /** Made on the first drop: most schemas need none. */
  dropped: Map<string, NarrowingReason> | undefined;
  /** Every drop, counted (a oneOf compares it before and after its branches). */
  drops: number;
  nodes: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const escapePointer = (segment: string) =>
  segment.includes('~') || segment.includes('/') ? segment.replace(/~/g, '~0').replace(/\//g, '~1') : segment;
const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

function drop(walk: Walk, path: string, reason: NarrowingReason): void {
  walk.drops += 1;
  walk.dropped ??= new Map();
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
): NarrowedNode {
  walk.nodes += 1;
  if (typeof node === 'boolean') return node;
  if (!isRecord(node)) {
    drop(walk, path, 'not_a_schema');
    return {};
  }
  if (walk.nodes > MAX_SCHEMA_NODES) {
    drop(walk, path, 'too_large');
    return acceptAnything(node);
  }
  if (depth > MAX_SCHEMA_DEPTH) {
    drop(walk, path, 'too_deep');
    return acceptAnything(node);
  }
  if (Object.prototype.hasOwnProperty.call(node, '$ref')) return narrowRef(walk, node, path, depth, refs);

  const out: Record<string, unknown> = {};
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
      else drop(walk, `${path}/${key}`, 'malformed_keyword');
    } else if (APPLICATORS.has(key)) {
      narrowApplicator(walk, out, key, value, `${path}/${key}`, depth, refs);
    } else {
      drop(walk, `${path}/${escapePointer(key)}`, 'unsupported_keyword');
    }
  }
  return out;
}

/** Narrows one applicator keyword into `out` (or drops it when malformed). */
function narrowApplicator(
  walk: Walk,
  out: Record<string, unknown>,
  key: string,
  value: unknown,
  at: string,
  depth: number,
  refs: readonly string[],
): void {
  switch (key) {
    case 'properties': {
      if (!isRecord(value)) return drop(walk, at, 'malformed_keyword');
      const props: Record<string, NarrowedNode> = {};
      for (const name of Object.keys(value)) {
        const sub = narrowNode(walk, value[name], `${at}/${escapePointer(name)}`, depth + 1, refs);
        if (name === '__proto__')
          Object.defineProperty(props, name, {
            value: sub,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else props[name] = sub;
      }
      out[key] = props;
      return;
    }
    case 'additionalProperties':
    case 'items':
      out[key] = narrowNode(walk, value, at, depth + 1, refs);
      return;
    default: {
      // anyOf / allOf / oneOf
      if (!Array.isArray(value) || value.length === 0) return drop(walk, at, 'malformed_keyword');
      const before = walk.drops;
      const branches = value.map((sub, i) => narrowNode(walk, sub, `${at}/${i}`, depth + 1, refs));
      if (key === 'oneOf' && walk.drops > before) {
        // Exactly-one cannot be judged over a widened branch: any-of accepts everything one-of did.
        drop(walk, at, 'one_of_widened');
        out.anyOf = branches;
      } else out[key] = branches;
    }
  }
}

function narrowRef(
  walk: Walk,
  node: Record<string, unknown>,
  path: string,
  depth: number,
  refs: readonly string[],
): NarrowedNode {
  const ref = node.$ref;
  const at = `${path}/$ref`;
  if (typeof ref !== 'string') {
    drop(walk, at, 'malformed_keyword');
    return acceptAnything(node);
  }
  if (refs.includes(ref)) {
    drop(walk, at, 'recursive_ref');
    return acceptAnything(node);
  }
  const target = resolveLocalRef(walk.root, ref);
  if (target === undefined) {
    drop(walk, at, 'unresolvable_ref');
    return acceptAnything(node);
  }
  for (const k of Object.keys(node)) {
    if (k !== '$ref' && !KEPT_ANNOTATIONS.has(k) && !SILENT_KEYWORDS.has(k) && !k.startsWith('x-'))
      drop(walk, `${path}/${escapePointer(k)}`, 'ref_sibling');
  }
  const inner = narrowNode(walk, target, path, depth + 1, [...refs, ref]);
  if (typeof inner !== 'object') return inner;
  const merged: Record<string, unknown> = { ...inner };
  for (const k of ['title', 'description']) if (typeof node[k] === 'string') merged[k] = node[k];
  return merged;
}

/**
 * Narrows one tool's inputSchema to the enforced subset. Pure and total: any input gives an object schema (an
 * input that is not an object schema at all narrows to `{ type: 'object' }`, reported at `#`).
 */
export function narrowInputSchema(inputSchema: unknown): NarrowingResult {
  const root = isRecord(inputSchema) ? inputSchema : {};
  const walk: Walk = { root, dropped: undefined, drops: 0, nodes: 0 };
  let narrowed: NarrowedNode = {};
  if (isRecord(inputSchema)) narrowed = narrowNode(walk, inputSchema, '#', 0, []);
  else drop(walk, '#', 'not_a_schema');
  // narrowNode always returns a fresh object for an object schema: it is ours to finish.
  const node = (typeof narrowed === 'object' ? narrowed : {}) as Record<string, unknown>;
  // The root is an object schema whatever the narrowing did: `required` is carried through untouched.
  if (node.type !== 'object') {
    if ('type' in node) drop(walk, '#/type', 'malformed_keyword');
    node.type = 'object';
  }
  const all = walk.dropped ? [...walk.dropped].map(([path, reason]) => ({ path, reason })) : [];
  return {
    schema: node as unknown as NarrowedInputSchema,
    dropped: all.slice(0, MAX_REPORTED_DROPS),
    droppedNotListed: Math.max(0, all.length - MAX_REPORTED_DROPS),
  };
}
