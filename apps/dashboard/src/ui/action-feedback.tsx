import type { ActionState } from '../server/action-state';
import { Callout, ProblemCallout } from './feedback';

/** The outcome of a form's last submission, shown above the form that caused it. */
export function ActionFeedback({ state, context }: { state: ActionState; context?: string }) {
  if (state.status === 'error') return <ProblemCallout problem={state.problem} context={context} />;
  if (state.status === 'success') {
    return (
      <Callout tone="success" live>
        <p>{state.message}</p>
      </Callout>
    );
  }
  return null;
}
