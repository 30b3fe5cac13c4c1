import { isPlainRecord } from './plain-data';
import { refuse, type OptionRead } from './option-refusal';
import { toolNameProblem } from './tool-name.guard';

/**
 * What a call of the tool does, as the caller vouches: `read` (no side effect), `idempotent` (repeat-safe
 * write), `write` (the fail-closed default for an MCP tool).
 */
export const TOOL_EFFECTS = ['read', 'idempotent', 'write'] as const;
export type ToolEffect = (typeof TOOL_EFFECTS)[number];

export const IRREVERSIBILITIES = ['always', 'never'] as const;
export type Irreversibility = (typeof IRREVERSIBILITIES)[number];

/** One tool's caller-side safety axes. The caller is the trust root: these may lower as well as raise. */
export interface ToolAxis {
  readonly effect?: ToolEffect;
  readonly egress?: boolean;
  readonly irreversibility?: Irreversibility;
}

/** Per remote tool name. Tools whose declaration was empty are not present (an empty object declares nothing). */
export type ToolAxes = Readonly<Record<string, ToolAxis>>;

const AXIS_MEMBERS = new Set(['effect', 'egress', 'irreversibility']);

function isOneOf<T extends string>(words: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (words as readonly string[]).includes(value);
}

/**
 * The one reader of a `toolAxes` declaration. The shape is judged, not trusted: an object of per-tool objects
 * whose members are exactly `effect` / `egress` / `irreversibility` with legal values. ONE bad tool refuses the
 * whole declaration: the good tools are not kept and nothing is defaulted, because a caller axis is two-way (it
 * can vouch a tool down) and a silently lost half is a trust root that is not in force.
 *
 * Absent, or only empty per-tool objects, reads as `value: undefined` (nothing declared). The answer is a plain
 * copy the reader built, never the caller's object. Shape only: whether the axes contradict each other (egress
 * over a non-write effect) is the ingestion's own arithmetic.
 */
export function readToolAxes(declared: unknown): OptionRead<ToolAxes | undefined> {
  if (declared === undefined) return { ok: true, value: undefined };
  if (!isPlainRecord(declared)) return refuse('wrong_type');
  const copy: Record<string, ToolAxis> = {};
  let count = 0;
  for (const tool of Object.keys(declared)) {
    const nameProblem = toolNameProblem(tool);
    if (nameProblem) return refuse(nameProblem, [tool]);
    const axis = declared[tool];
    if (!isPlainRecord(axis)) return refuse('wrong_type', [tool]);
    const read: { effect?: ToolEffect; egress?: boolean; irreversibility?: Irreversibility } = {};
    for (const member of Object.keys(axis)) {
      if (!AXIS_MEMBERS.has(member)) return refuse('unknown_member', [tool, member]);
    }
    if (Object.hasOwn(axis, 'effect')) {
      if (!isOneOf(TOOL_EFFECTS, axis.effect)) return refuse('not_in_vocabulary', [tool, 'effect']);
      read.effect = axis.effect;
    }
    if (Object.hasOwn(axis, 'egress')) {
      if (typeof axis.egress !== 'boolean') return refuse('wrong_type', [tool, 'egress']);
      read.egress = axis.egress;
    }
    if (Object.hasOwn(axis, 'irreversibility')) {
      if (!isOneOf(IRREVERSIBILITIES, axis.irreversibility)) {
        return refuse('not_in_vocabulary', [tool, 'irreversibility']);
      }
      read.irreversibility = axis.irreversibility;
    }
    if (Object.keys(read).length > 0) {
      copy[tool] = Object.freeze(read);
      count += 1;
    }
  }
  return { ok: true, value: count === 0 ? undefined : Object.freeze(copy) };
}
