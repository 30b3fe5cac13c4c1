import { ProblemError } from '@gatehouse/platform';
import { conflict, notFound } from '../shared/command-problems';
import type { JoinRefusal } from './join-invited-tenant';

/**
 * A link that cannot be used, for whatever reason (unknown, expired, revoked, used, or for another address),
 * is one 404 `not_found`: the answer confirms nothing about the invitation or about any account.
 */
export function unusableInvitation(): ProblemError {
  return notFound('usable invitation for this account (it may have expired, been revoked or used)');
}

export function joinRefusalProblem(reason: JoinRefusal): ProblemError {
  switch (reason) {
    case 'unusable':
    case 'email_mismatch':
      return unusableInvitation();
    case 'already_member':
      return conflict('You are a member of this tenant already.');
  }
}
