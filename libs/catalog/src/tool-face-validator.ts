import type { ToolFaceProblem } from '@gatehouse/contracts';
import type { OptionPath } from './option-refusal';
import { isPlainRecord } from './plain-data';
import type { ToolFace } from './tool-faces-reader';

/**
 * The face families the catalog knows: the specialised approval cards a host may show for a tool (a file read,
 * write or edit confirmed by its path, a shell command, a web fetch or search). Decision 0048.
 */
export const TOOL_FAMILIES = [
  'file-read',
  'file-write',
  'file-edit',
  'shell',
  'web-fetch',
  'web-search',
] as const;
export type ToolFamily = (typeof TOOL_FAMILIES)[number];

export interface ToolFaceFault {
  readonly path: OptionPath;
  readonly problem: ToolFaceProblem;
}

export type ToolFaceCheck =
  { readonly ok: true } | { readonly ok: false; readonly faults: readonly ToolFaceFault[] };

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

function typesOf(schema: Readonly<Record<string, unknown>>): readonly unknown[] | undefined {
  const type = schema['type'];
  if (type === undefined) return undefined;
  return Array.isArray(type) ? type : [type];
}

function acceptsStrings(schema: unknown): boolean {
  if (!isPlainRecord(schema)) return schema === true;
  const types = typesOf(schema);
  return types === undefined || types.includes('string');
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Only values a rule can compare: a scalar `type` (or list of them), or an `enum`/`const` of scalars. */
function isScalarSchema(schema: unknown): boolean {
  if (!isPlainRecord(schema)) return false;
  const types = typesOf(schema);
  if (types !== undefined) {
    return (
      types.length > 0 &&
      types.every((t) => typeof t === 'string' && SCALAR_TYPES.has(t)) &&
      !types.every((t) => t === 'null')
    );
  }
  if (Object.hasOwn(schema, 'const')) return isScalar(schema['const']);
  const values = schema['enum'];
  return Array.isArray(values) && values.length > 0 && values.every(isScalar);
}

/**
 * Judges a face (already read by readToolFaces) against the tool's MATERIALIZED (narrowed) input schema, at every
 * listing: a `pathTarget.param` must be a top-level property that can hold a string, `approvalCard` keys must be
 * top-level properties, `ruleFace` keys top-level properties of scalar type, the family one of
 * {@link TOOL_FAMILIES}. A narrowed (accept-anything) property is a property, but not a scalar one. Every fault is
 * returned, so one diagnostic can name them all; any fault means the tool mounts without the face.
 */
export function checkToolFace(face: ToolFace, inputSchema: Readonly<Record<string, unknown>>): ToolFaceCheck {
  const faults: ToolFaceFault[] = [];
  const types = typesOf(inputSchema);
  const isObject = types === undefined || types.includes('object');
  const properties = isPlainRecord(inputSchema['properties']) ? inputSchema['properties'] : {};
  const propertyAt = (name: string, path: OptionPath): unknown => {
    if (!isObject) {
      faults.push({ path, problem: 'schema_not_object' });
      return undefined;
    }
    if (!Object.hasOwn(properties, name)) {
      faults.push({ path, problem: 'not_a_property' });
      return undefined;
    }
    return properties[name];
  };
  if (face.family !== undefined && !(TOOL_FAMILIES as readonly string[]).includes(face.family)) {
    faults.push({ path: ['family'], problem: 'unknown_family' });
  }
  if (face.pathTarget !== undefined) {
    const path = ['pathTarget', 'param'];
    const before = faults.length;
    const property = propertyAt(face.pathTarget.param, path);
    if (faults.length === before && !acceptsStrings(property))
      faults.push({ path, problem: 'not_a_string_property' });
  }
  face.renderHints?.approvalCard?.forEach((key, i) => {
    propertyAt(key, ['renderHints', 'approvalCard', i]);
  });
  face.ruleFace?.keys.forEach((key, i) => {
    const path = ['ruleFace', 'keys', i];
    const before = faults.length;
    const property = propertyAt(key, path);
    if (faults.length === before && !isScalarSchema(property))
      faults.push({ path, problem: 'not_a_scalar_property' });
  });
  return faults.length === 0 ? { ok: true } : { ok: false, faults };
}
