import type { NarrowedInputSchema, NarrowedNode } from './schema-narrowing';

// Checks a tool call's arguments against a narrowed inputSchema: every keyword the narrower kept is enforced, at
// every depth; nothing else is looked at (an accept-anything node accepts anything).

export type ArgumentProblem =
  | 'wrong_type'
  | 'not_in_enum'
  | 'not_const'
  | 'missing_required'
  | 'unexpected_property'
  | 'too_short'
  | 'too_long'
  | 'too_few_items'
  | 'too_many_items'
  | 'duplicate_items'
  | 'too_few_properties'
  | 'too_many_properties'
  | 'below_minimum'
  | 'above_maximum'
  | 'not_multiple'
  | 'no_branch_matched'
  | 'not_exactly_one'
  | 'rejected';

export type ArgumentCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: ArgumentProblem;
      /** JSON pointer into the arguments (never the value found there). */
      readonly path: string;
    };

type Failure = { readonly reason: ArgumentProblem; readonly path: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    default:
      return false;
  }
}

/** JSON equality without recursion (arguments may nest deeper than the stack). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop() as [unknown, unknown];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') {
      if (x !== y) return false;
      continue;
    }
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i += 1) stack.push([x[i], y[i]]);
      continue;
    }
    if (isRecord(x)) {
      if (!isRecord(y)) return false;
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      for (const k of kx) {
        if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
        stack.push([x[k], y[k]]);
      }
      continue;
    }
    return false;
  }
  return true;
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}

function isMultiple(value: number, of: number): boolean {
  const q = value / of;
  return Number.isFinite(q) && Math.abs(q - Math.round(q)) <= 1e-9 * Math.max(1, Math.abs(q));
}

function checkNode(node: NarrowedNode, value: unknown, path: string): Failure | null {
  if (node === true) return null;
  if (node === false) return { reason: 'rejected', path };
  const s = node as Record<string, unknown>;

  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => typeMatches(t, value))) return { reason: 'wrong_type', path };
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => jsonEqual(e, value)))
    return { reason: 'not_in_enum', path };
  if ('const' in s && !jsonEqual(s.const, value)) return { reason: 'not_const', path };

  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' || typeof s.maxLength === 'number') {
      const n = codePoints(value);
      if (typeof s.minLength === 'number' && n < s.minLength) return { reason: 'too_short', path };
      if (typeof s.maxLength === 'number' && n > s.maxLength) return { reason: 'too_long', path };
    }
  } else if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return { reason: 'below_minimum', path };
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum)
      return { reason: 'below_minimum', path };
    if (typeof s.maximum === 'number' && value > s.maximum) return { reason: 'above_maximum', path };
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum)
      return { reason: 'above_maximum', path };
    if (typeof s.multipleOf === 'number' && !isMultiple(value, s.multipleOf))
      return { reason: 'not_multiple', path };
  } else if (Array.isArray(value)) {
    const failure = checkArray(s, value, path);
    if (failure) return failure;
  } else if (isRecord(value)) {
    const failure = checkObject(s, value, path);
    if (failure) return failure;
  }

  if (Array.isArray(s.allOf)) {
    for (const branch of s.allOf as NarrowedNode[]) {
      const failure = checkNode(branch, value, path);
      if (failure) return failure;
    }
  }
  if (Array.isArray(s.anyOf) && !(s.anyOf as NarrowedNode[]).some((b) => checkNode(b, value, path) === null))
    return { reason: 'no_branch_matched', path };
  if (Array.isArray(s.oneOf)) {
    let passing = 0;
    for (const branch of s.oneOf as NarrowedNode[]) if (checkNode(branch, value, path) === null) passing += 1;
    if (passing !== 1) return { reason: passing === 0 ? 'no_branch_matched' : 'not_exactly_one', path };
  }
  return null;
}

function checkArray(s: Record<string, unknown>, value: readonly unknown[], path: string): Failure | null {
  if (typeof s.minItems === 'number' && value.length < s.minItems) return { reason: 'too_few_items', path };
  if (typeof s.maxItems === 'number' && value.length > s.maxItems) return { reason: 'too_many_items', path };
  if (s.items !== undefined) {
    for (let i = 0; i < value.length; i += 1) {
      const failure = checkNode(s.items as NarrowedNode, value[i], `${path}/${i}`);
      if (failure) return failure;
    }
  }
  if (s.uniqueItems === true) {
    for (let i = 0; i < value.length; i += 1)
      for (let j = i + 1; j < value.length; j += 1)
        if (jsonEqual(value[i], value[j])) return { reason: 'duplicate_items', path: `${path}/${j}` };
  }
  return null;
}

function checkObject(
  s: Record<string, unknown>,
  value: Record<string, unknown>,
  path: string,
): Failure | null {
  const keys = Object.keys(value);
  if (typeof s.minProperties === 'number' && keys.length < s.minProperties)
    return { reason: 'too_few_properties', path };
  if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties)
    return { reason: 'too_many_properties', path };
  if (Array.isArray(s.required)) {
    for (const name of s.required as string[])
      if (!Object.prototype.hasOwnProperty.call(value, name))
        return { reason: 'missing_required', path: `${path}/${escapePointer(name)}` };
  }
  const properties = isRecord(s.properties) ? s.properties : {};
  for (const key of keys) {
    const at = `${path}/${escapePointer(key)}`;
    if (Object.prototype.hasOwnProperty.call(properties, key)) {
      const failure = checkNode(properties[key] as NarrowedNode, value[key], at);
      if (failure) return failure;
    } else if (s.additionalProperties !== undefined) {
      if (s.additionalProperties === false) return { reason: 'unexpected_property', path: at };
      const failure = checkNode(s.additionalProperties as NarrowedNode, value[key], at);
      if (failure) return failure;
    }
  }
  return null;
}

/** The first problem found in `args` (a path and a reason, never a value), or ok. */
export function checkArguments(schema: NarrowedInputSchema, args: unknown): ArgumentCheck {
  const failure = checkNode(schema as unknown as NarrowedNode, args, '');
  return failure ? { ok: false, ...failure } : { ok: true };
}
