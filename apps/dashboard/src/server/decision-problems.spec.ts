import type { ApiProblem, ShownProblemCode } from './api-problem';
import { decisionProblem } from './decision-problems';

function problem(code: ShownProblemCode, status: number): ApiProblem {
  return { code, title: code, status, detail: 'from the API', errors: [], tenants: [] };
}

describe('decisionProblem', () => {
  it('tells the approver to review the new request when the definition changed, keeping the code', () => {
    const shown = decisionProblem(problem('changed_since_review', 409));
    expect(shown.code).toBe('changed_since_review');
    expect(shown.status).toBe(409);
    expect(shown.title).toBe('The definition changed since you opened it');
    expect(shown.detail).toContain('Review the new request');
  });

  it('sends the approver to the queue when the request was replaced by a newer one', () => {
    const shown = decisionProblem(problem('request_not_open', 409));
    expect(shown.code).toBe('request_not_open');
    expect(shown.title).toBe('This request is no longer open');
    expect(shown.detail).toContain('newer request replaced it');
  });

  it('tells the author of a change that someone else must approve it', () => {
    const shown = decisionProblem(problem('four_eyes_author', 403));
    expect(shown.code).toBe('four_eyes_author');
    expect(shown.title).toBe('You authored this change');
  });

  it('shows any other problem as the API sent it', () => {
    const other = problem('not_found', 404);
    expect(decisionProblem(other)).toBe(other);
  });
});
