import { findJsonShapeProblem } from '@gatehouse/contracts';
import {
  ProtocolError,
  ProtocolErrorCode,
  specTypeSchemas,
  type ElicitResult,
} from '@modelcontextprotocol/server';
import { MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_MEMBERS } from './argument-bounds.js';

// A client's answer to an upstream's elicitation, as the upstream is given it (decision 0130). The protocol's
// answer is an action and, when accepted, flat form content; the SDK's schema keeps any other member it finds
// (and `_meta`), and what it keeps was sent on as is: an extra member 100,000 levels deep overflowed the send's
// JSON.stringify and the call hung. So the answer is rebuilt from `action` and `content` only, and `content` is
// judged by the gateway's argument bounds first (it is the caller's input to the tool, as arguments are).
//
// Content past a bound is answered `cancel`, not `decline`: decline says the user refused, and nobody did; the
// answer could not be relayed, which is what cancel (dismissed without an explicit choice) tells the tool. It is
// not an error either: the upstream's call goes on, as it would after a dismissed prompt.

const ARGUMENT_BOUNDS = { maxDepth: MAX_ARGUMENT_DEPTH, maxMembers: MAX_ARGUMENT_MEMBERS } as const;

export const CANCELLED_ANSWER: ElicitResult = { action: 'cancel' };

/** The answer the upstream is given, or the -32602 it is refused with (no action, or content of another shape). */
export function elicitationAnswer(raw: unknown): ElicitResult | ProtocolError {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return invalid();
  const { action, content } = raw as { action?: unknown; content?: unknown };
  const judged = content ?? undefined;
  if (judged !== undefined && findJsonShapeProblem(judged, ARGUMENT_BOUNDS) !== null) return CANCELLED_ANSWER;
  const parsed = specTypeSchemas.ElicitResult['~standard'].validate(
    judged === undefined ? { action } : { action, content: judged },
  );
  if (parsed.issues !== undefined) return invalid();
  const { action: judgedAction, content: kept } = parsed.value;
  return kept === undefined ? { action: judgedAction } : { action: judgedAction, content: kept };
}

/**
 * A client's refusal of an elicitation, as the upstream is told it: its code and words, and its `data` only within
 * the argument bounds (the data is the client's, sent on as it gave it).
 */
export function elicitationRefusal(error: unknown): unknown {
  if (!(error instanceof ProtocolError) || error.data === undefined) return error;
  if (findJsonShapeProblem(error.data, ARGUMENT_BOUNDS) === null) return error;
  return new ProtocolError(error.code, 'Elicitation failed');
}

function invalid(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid elicitation result');
}
