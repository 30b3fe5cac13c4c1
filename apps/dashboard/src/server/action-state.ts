import type { ApiProblem, FieldProblem } from './api-problem';
import { messageInWords } from './problem-words';

/**
 * What a server action hands back to the form that called it (useActionState). `at` makes two equal results
 * in a row distinct, so a form can react to each submission (close its dialog, move focus).
 */
export type ActionState =
  | { readonly status: 'idle' }
  | { readonly status: 'success'; readonly message: string; readonly at: number }
  | {
      readonly status: 'error';
      readonly problem: ApiProblem;
      readonly at: number;
      /**
       * What the person typed, shown again: React resets a form after its action, and a refused form should
       * not lose its input. Never a password or a secret.
       */
      readonly values?: SubmittedValues;
    };

export type SubmittedValues = Readonly<Record<string, string | readonly string[]>>;

export const IDLE: ActionState = { status: 'idle' };

export function success(message: string): ActionState {
  return { status: 'success', message, at: Date.now() };
}

export function failure(problem: ApiProblem, values?: SubmittedValues): ActionState {
  return values === undefined
    ? { status: 'error', problem, at: Date.now() }
    : { status: 'error', problem, at: Date.now(), values };
}

/** The value a field had when its form was refused (for `defaultValue`), or `fallback`. */
export function submitted(state: ActionState, field: string, fallback = ''): string {
  const value = state.status === 'error' ? state.values?.[field] : undefined;
  return typeof value === 'string' ? value : fallback;
}

/** The checked values of a checkbox group when its form was refused. */
export function submittedList(state: ActionState, field: string): readonly string[] {
  const value = state.status === 'error' ? state.values?.[field] : undefined;
  return Array.isArray(value) ? value : [];
}

/**
 * The message for one form field, from a `validation_failed` problem (paths are the command's field names), in
 * words a person can act on (never the validator's raw text).
 */
export function fieldError(state: ActionState, field: string): string | undefined {
  if (state.status !== 'error') return undefined;
  const found = state.problem.errors.find(
    (error: FieldProblem) => error.path === field || error.path.startsWith(`${field}.`),
  );
  return found === undefined ? undefined : messageInWords(found.message);
}
