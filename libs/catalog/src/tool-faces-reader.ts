import { isPlainRecord } from './plain-data';
import { refuse, type OptionPath, type OptionRead } from './option-refusal';
import { propertyNameProblem } from './property-name.guard';
import { toolNameProblem } from './tool-name.guard';

/**
 * A tool face: how a deployment lets one MCP tool enter a specialised approval card, be confirmed by path, carry
 * a display name or narrow its rule vocabulary. This reader judges the SHAPE at decode time. Whether a face fits
 * the tool's materialized schema (a `pathTarget.param` that is a top-level property, `approvalCard` keys the
 * schema has, scalar `ruleFace` keys) is judged at every listing by the catalog, which mounts the tool without
 * the face when it does not fit.
 */
export interface ToolPathTarget {
  /** The top-level input property that holds the path the call touches. */
  readonly param: string;
}

export interface ToolRenderHints {
  readonly displayName?: string;
  readonly summary?: string;
  /** Input properties shown on the approval card, in this order. */
  readonly approvalCard?: readonly string[];
}

export interface ToolRuleFace {
  /** Scalar input properties a rule may match on. */
  readonly keys: readonly string[];
}

export interface ToolFace {
  /** A family word (lowercase identifier); its vocabulary is the catalog's, checked at listing. */
  readonly family?: string;
  readonly pathTarget?: ToolPathTarget;
  readonly renderHints?: ToolRenderHints;
  readonly ruleFace?: ToolRuleFace;
}

export type ToolFaces = Readonly<Record<string, ToolFace>>;

const FACE_MEMBERS = new Set(['family', 'pathTarget', 'renderHints', 'ruleFace']);
const RENDER_MEMBERS = new Set(['displayName', 'summary', 'approvalCard']);
const FAMILY_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
const MAX_DISPLAY_NAME = 128;
const MAX_SUMMARY = 1024;
const MAX_KEYS = 64;

function readPropertyName(value: unknown, path: OptionPath): OptionRead<string> {
  if (typeof value !== 'string') return refuse('wrong_type', path);
  const problem = propertyNameProblem(value);
  return problem ? refuse(problem, path) : { ok: true, value };
}

function readKeyList(value: unknown, path: OptionPath, allowEmpty: boolean): OptionRead<readonly string[]> {
  if (!Array.isArray(value)) return refuse('wrong_type', path);
  if (!allowEmpty && value.length === 0) return refuse('empty_list', path);
  if (value.length > MAX_KEYS) return refuse('too_long', path);
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i += 1) {
    const read = readPropertyName(value[i], [...path, i]);
    if (!read.ok) return read;
    if (seen.has(read.value)) return refuse('duplicate_name', [...path, i]);
    seen.add(read.value);
  }
  return { ok: true, value: Object.freeze([...seen]) };
}

function readText(value: unknown, path: OptionPath, max: number): OptionRead<string> {
  if (typeof value !== 'string') return refuse('wrong_type', path);
  if (value.length > max) return refuse('too_long', path);
  return { ok: true, value };
}

function unknownMember(
  record: Readonly<Record<string, unknown>>,
  known: ReadonlySet<string>,
  path: OptionPath,
) {
  for (const member of Object.keys(record)) {
    if (!known.has(member)) return refuse('unknown_member', [...path, member]);
  }
  return null;
}

function readFace(face: unknown, tool: string): OptionRead<ToolFace> {
  if (!isPlainRecord(face)) return refuse('wrong_type', [tool]);
  const unknown = unknownMember(face, FACE_MEMBERS, [tool]);
  if (unknown) return unknown;
  const read: {
    family?: string;
    pathTarget?: ToolPathTarget;
    renderHints?: ToolRenderHints;
    ruleFace?: ToolRuleFace;
  } = {};
  if (Object.hasOwn(face, 'family')) {
    if (typeof face.family !== 'string') return refuse('wrong_type', [tool, 'family']);
    if (!FAMILY_PATTERN.test(face.family)) return refuse('not_in_vocabulary', [tool, 'family']);
    read.family = face.family;
  }
  if (Object.hasOwn(face, 'pathTarget')) {
    const target = face.pathTarget;
    if (!isPlainRecord(target)) return refuse('wrong_type', [tool, 'pathTarget']);
    const bad = unknownMember(target, new Set(['param']), [tool, 'pathTarget']);
    if (bad) return bad;
    const param = readPropertyName(target.param, [tool, 'pathTarget', 'param']);
    if (!param.ok) return param;
    read.pathTarget = Object.freeze({ param: param.value });
  }
  if (Object.hasOwn(face, 'renderHints')) {
    const hints = face.renderHints;
    const at = [tool, 'renderHints'];
    if (!isPlainRecord(hints)) return refuse('wrong_type', at);
    const bad = unknownMember(hints, RENDER_MEMBERS, at);
    if (bad) return bad;
    const out: { displayName?: string; summary?: string; approvalCard?: readonly string[] } = {};
    if (Object.hasOwn(hints, 'displayName')) {
      const text = readText(hints.displayName, [...at, 'displayName'], MAX_DISPLAY_NAME);
      if (!text.ok) return text;
      out.displayName = text.value;
    }
    if (Object.hasOwn(hints, 'summary')) {
      const text = readText(hints.summary, [...at, 'summary'], MAX_SUMMARY);
      if (!text.ok) return text;
      out.summary = text.value;
    }
    if (Object.hasOwn(hints, 'approvalCard')) {
      const keys = readKeyList(hints.approvalCard, [...at, 'approvalCard'], false);
      if (!keys.ok) return keys;
      out.approvalCard = keys.value;
    }
    read.renderHints = Object.freeze(out);
  }
  if (Object.hasOwn(face, 'ruleFace')) {
    const rule = face.ruleFace;
    const at = [tool, 'ruleFace'];
    if (!isPlainRecord(rule)) return refuse('wrong_type', at);
    const bad = unknownMember(rule, new Set(['keys']), at);
    if (bad) return bad;
    const keys = readKeyList(rule.keys, [...at, 'keys'], false);
    if (!keys.ok) return keys;
    read.ruleFace = Object.freeze({ keys: keys.value });
  }
  return { ok: true, value: Object.freeze(read) };
}

/**
 * Reads `toolFaces`: per remote tool name, an optional face. Strict like every reader here: an unknown member, a
 * wrong type or a bad word anywhere refuses the whole declaration. Absent, or only empty faces, reads as
 * `value: undefined`. Tool names are judged by toolNameProblem (SEP-986 characters, at most
 * MAX_OPTION_NAME_LENGTH); property names only by their bounds.
 */
export function readToolFaces(declared: unknown): OptionRead<ToolFaces | undefined> {
  if (declared === undefined) return { ok: true, value: undefined };
  if (!isPlainRecord(declared)) return refuse('wrong_type');
  const copy: Record<string, ToolFace> = {};
  let count = 0;
  for (const tool of Object.keys(declared)) {
    const nameProblem = toolNameProblem(tool);
    if (nameProblem) return refuse(nameProblem, [tool]);
    const face = readFace(declared[tool], tool);
    if (!face.ok) return face;
    if (Object.keys(face.value).length > 0) {
      copy[tool] = face.value;
      count += 1;
    }
  }
  return { ok: true, value: count === 0 ? undefined : Object.freeze(copy) };
}
