import type { ApiProblem } from './api-problem';

// What an approver reads when the API refuses a decision. The refusals the workflow exists for (the server
// changed since review, the request was replaced, four-eyes) get words that say what to do next; the API's code stays on the problem (and so on the page), any other problem shows
// as the API sent it.

export function decisionProblem(problem: ApiProblem): ApiProblem {
  switch (problem.code) {
    case 'changed_since_review':
      return {
        ...problem,
        title: 'The definition changed since you opened it',
        detail:
          'Nothing was decided: what you reviewed is no longer what this server is. Review the new request, which shows what changed.',
      };
    case 'request_not_open':
      return {
        ...problem,
        title: 'This request is no longer open',
        detail:
          'It was decided, or the server changed and a newer request replaced it. Nothing was decided now: review the open request in the queue.',
      };
    case 'four_eyes_author':
      return {
        ...problem,
        title: 'You authored this change',
        detail: 'Four-eyes is on for this tenant: someone other than the author of a change must approve it.',
      };
    default:
      return problem;
  }
}
