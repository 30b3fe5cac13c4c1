import type { CompletionOutcome } from '@gatehouse/mcp-client';

// completion/complete's bounds both ways (decision 0126). The caller's argument and context are passed to the
// upstream as they are, only bounded: a name as long as a prompt argument's name may be echoed (128), a value as
// long as a URI may be echoed (2,048: a template variable's value is part of one). The upstream's answer is rebuilt
// from its three fields, nothing else of it passed on: at most the protocol's 100 values (the SDK's schema refuses
// more, as a failed request), each a string no longer than a value the caller may send back, a longer one dropped
// (a cut completion would be a wrong one).

export const MAX_COMPLETION_NAME_CHARS = 128;
export const MAX_COMPLETION_VALUE_CHARS = 2_048;
/** Previously resolved arguments a completion may carry as context (a prompt's or a template's variables). */
export const MAX_COMPLETION_CONTEXT_ARGUMENTS = 64;
/** The protocol's bound on one completion's values (MCP 2025-11-25). */
export const MAX_COMPLETION_VALUES = 100;

export type UpstreamCompletionResult = Extract<CompletionOutcome, { ok: true }>['result'];

/** What a completion answers: the values, and how many there are or whether there are more when known. */
export type ServedCompletion = {
  readonly completion: { values: string[]; total?: number; hasMore?: boolean };
};

/** A server that offers no completions: the protocol's empty answer (a server may offer none). */
export function noCompletion(): ServedCompletion {
  return { completion: { values: [], hasMore: false } };
}

export interface CompletionInput {
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: { readonly arguments?: Readonly<Record<string, string>> };
}

/** Which part of a completion request is over its bound (never its content). */
export type CompletionTooLarge = {
  readonly ok: false;
  readonly reason: 'argument_too_large';
  readonly field: 'argument.name' | 'argument.value' | 'context.arguments';
};

export function completionInputRefusal(input: CompletionInput): CompletionTooLarge | undefined {
  if (input.argument.name.length > MAX_COMPLETION_NAME_CHARS) return tooLarge('argument.name');
  if (input.argument.value.length > MAX_COMPLETION_VALUE_CHARS) return tooLarge('argument.value');
  const context = Object.entries(input.context?.arguments ?? {});
  if (context.length > MAX_COMPLETION_CONTEXT_ARGUMENTS) return tooLarge('context.arguments');
  for (const [name, value] of context)
    if (name.length > MAX_COMPLETION_NAME_CHARS || value.length > MAX_COMPLETION_VALUE_CHARS)
      return tooLarge('context.arguments');
  return undefined;
}

/** The upstream's answer in our bounds, with none of its other fields (`_meta`, extensions). */
export function boundedCompletion(result: UpstreamCompletionResult): ServedCompletion {
  const { values, total, hasMore } = result.completion;
  return {
    completion: {
      values: values
        .slice(0, MAX_COMPLETION_VALUES)
        .filter((value) => typeof value === 'string' && value.length <= MAX_COMPLETION_VALUE_CHARS),
      ...(typeof total === 'number' && Number.isSafeInteger(total) && total >= 0 ? { total } : {}),
      ...(typeof hasMore === 'boolean' ? { hasMore } : {}),
    },
  };
}

function tooLarge(field: CompletionTooLarge['field']): CompletionTooLarge {
  return { ok: false, reason: 'argument_too_large', field };
}
