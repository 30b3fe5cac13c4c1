import type { ApiProblem, FieldProblem } from './api-problem';

/**
 * What a server action hands back to the form that called it (useActionState). `at` makes two equal results
 * in a row distinct, so a form can react to each submission (close its dialog, move focus).
 */
export type ActionState =
  | { readonly status: 'idle' }
  | { readonly status: 'success'; readonly message: string; readonly at: number }
  | { readonly status: 'error'; readonly problem: ApiProblem; readonly at: number };

export const IDLE: ActionState = { status: 'idle' };

export function success(message: string): ActionState {
  return { status: 'success', message, at: Date.now() };
}

export function failure(problem: ApiProblem): ActionState {
  return { status: 'error', problem, at: Date.now() };
}

/** The message for one form field, from a `validation_failed` problem (paths are the command's field names). */
export function fieldError(state: ActionState, field: string): string | undefined {
  if (state.status !== 'error') return undefined;
  return state.problem.errors.find(
    (error: FieldProblem) => error.path === field || error.path.startsWith(`${field}.`),
  )?.message;
}
