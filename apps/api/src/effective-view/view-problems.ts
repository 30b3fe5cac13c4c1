import { ProblemWithMembersError } from '../shared/problem-with-members';

// The effective view's own refusal: the same problem whichever feature asked the view (a lease, a catalog refresh,
// an OAuth sign-in).

/** The view lists the server, but not as something that could run (unresolved, blocked, disabled, rejected). */
export function serverNotLeasable(entryStatus: string): ProblemWithMembersError {
  return new ProblemWithMembersError(
    {
      status: 409,
      code: 'server_not_leasable',
      title: 'Server not leasable',
      detail: 'This server does not resolve to something that can run in this view.',
    },
    { entryStatus },
  );
}
