import { redirect } from 'next/navigation';
import { notAllowedProblem, type ApiProblem } from './api-problem';
import { CAPABILITY_NEEDS, type Capability } from './capabilities';
import { lookupSession, SESSION_ENDED_PATH } from './current-session';

/**
 * The check at the top of every server action: actions are reachable by a direct POST, not only through the
 * page that renders their form, so each one asks again who is calling and whether they may. Returns the
 * problem to show, or null to go ahead (the API checks the same scope again).
 */
export async function refuseUnless(capability: Capability): Promise<ApiProblem | null> {
  const lookup = await lookupSession();
  switch (lookup.status) {
    case 'signed-out':
      redirect('/sign-in');
    case 'ended':
      redirect(SESSION_ENDED_PATH);
    case 'unavailable':
      return lookup.problem;
    case 'signed-in':
      return lookup.can[capability] ? null : notAllowedProblem(CAPABILITY_NEEDS[capability]);
  }
}
