import { findJsonShapeProblem } from '@gatehouse/contracts';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

// A caller's arguments (tools/call, prompts/get, completion/complete) are judged before any upstream is asked
// (decision 0130). JSON.parse reads any depth the body cap allows, but the SDK client serializes what it sends
// with JSON.stringify, which recurses: 100,000 levels (about 600 KB) overflowed its stack on the shared upstream
// connection, which then failed every caller on it until it reconnected. A real tool's arguments nest a few
// levels; 64 leaves room for any schema and none for a hostile walk. The members bound keeps one object from
// making a validator (the narrowed schema check, the upstream's) pay for keys nobody declared.

/** Containers in one request's arguments may nest at most this deep (the arguments object is level 1). */
export const MAX_ARGUMENT_DEPTH = 64;
/** An object in the arguments may hold at most this many keys, an array this many items. */
export const MAX_ARGUMENT_MEMBERS = 1_024;

/** Which bound, by the refusal's stable `data.reason`. */
const REASONS = { depth: 'argument_too_deep', members: 'argument_too_wide' } as const;

/**
 * The -32602 a caller's arguments are refused with when they are past a bound (the bound named, never a value
 * or a key), or undefined when they are within them. Iterative and linear: whatever the depth, it cannot
 * overflow the stack.
 */
export function argumentsRefusal(args: unknown): ProtocolError | undefined {
  const problem = findJsonShapeProblem(args, {
    maxDepth: MAX_ARGUMENT_DEPTH,
    maxMembers: MAX_ARGUMENT_MEMBERS,
  });
  if (problem === null) return undefined;
  const message =
    problem.bound === 'depth'
      ? `Arguments nest deeper than ${problem.limit} levels`
      : `An argument object or array has more than ${problem.limit} members`;
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, {
    reason: REASONS[problem.bound],
    limit: problem.limit,
  });
}

/** An argument that must be a string (a prompt's, a completion's) is not: named (bounded), never its value. */
function notAString(name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid arguments', {
    reason: 'invalid_arguments',
    argument: name.slice(0, 128),
    problem: 'not_a_string',
  });
}

/**
 * String-valued arguments (prompts/get, a completion's argument and context) as the protocol has them, or the
 * -32602 they are refused with: past a bound first, then the first that is not a string.
 */
export function stringArguments(
  args: Readonly<Record<string, unknown>>,
): Record<string, string> | ProtocolError {
  const refused = argumentsRefusal(args);
  if (refused !== undefined) return refused;
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (typeof value !== 'string') return notAString(name);
    strings[name] = value;
  }
  return strings;
}

/** One string argument (a completion's value), or the -32602 it is refused with. */
export function stringArgument(name: string, value: unknown): string | ProtocolError {
  if (typeof value === 'string') return value;
  return argumentsRefusal(value) ?? notAString(name);
}
