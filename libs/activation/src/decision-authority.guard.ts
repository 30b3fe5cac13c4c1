import { assertNever } from './assert-never';
import type { EntrySource } from './activation-types';
import { decisionMatchesReview, type ReviewedField } from './review.guard';

/** The scope a decider must hold (the spelling of @gatehouse/commands' scope). */
export const DECIDE_SCOPE = 'approvals:decide';

export type DeciderRole = 'owner' | 'admin' | 'approver' | 'member';

/**
 * Who is trying to decide. Humans act through a dashboard session or their own user token; everything else is a
 * service (agent, worker, gateway tokens) or a definition source (a document that would approve itself).
 */
export type Decider =
  | {
      readonly kind: 'session' | 'user_token';
      readonly userId: string;
      readonly role: DeciderRole;
      readonly scopes: readonly string[];
    }
  | { readonly kind: 'agent_token' | 'worker_token' | 'gateway_token'; readonly scopes: readonly string[] }
  | { readonly kind: 'definition_source'; readonly source: EntrySource };

export type DecisionVerb = 'approve' | 'deny';

/** The open request being decided, and what the decider reviewed against what the definition is now. */
export interface DecisionRequest {
  readonly verb: DecisionVerb;
  /** The source of the entry the request is about. */
  readonly source: EntrySource;
  /** The users whose changes this request covers (four-eyes: none of them may approve it). */
  readonly authorUserIds: readonly string[];
  readonly seenFingerprint: string;
  readonly currentFingerprint: string;
  readonly seenIdentity: string;
  readonly currentIdentity: string;
}

/**
 * - `not_a_human_principal`: agent, worker and gateway tokens (and any source) never decide.
 * - `source_cannot_approve_itself`: the definition source the request is about tried to decide it.
 * - `missing_scope`: the human does not hold `approvals:decide`.
 * - `role_cannot_decide`: the human's role is not approver, admin or owner.
 * - `author_cannot_approve`: four-eyes is on and the decider authored the change.
 * - `changed_since_review`: the definition changed after the decider reviewed it (compare-and-swap).
 */
export type DecisionRefusal =
  | { readonly ok: false; readonly reason: 'not_a_human_principal' }
  | { readonly ok: false; readonly reason: 'source_cannot_approve_itself' }
  | { readonly ok: false; readonly reason: 'missing_scope'; readonly scope: typeof DECIDE_SCOPE }
  | { readonly ok: false; readonly reason: 'role_cannot_decide' }
  | { readonly ok: false; readonly reason: 'author_cannot_approve' }
  | {
      readonly ok: false;
      readonly reason: 'changed_since_review';
      readonly changed: readonly ReviewedField[];
    };

export type DecisionAuthority = { readonly ok: true; readonly deciderUserId: string } | DecisionRefusal;

export interface CanDecideInput {
  readonly decider: Decider;
  readonly request: DecisionRequest;
  /** The tenant's HostPolicy four-eyes rule. */
  readonly fourEyes: boolean;
}

function roleMayDecide(role: DeciderRole): boolean {
  switch (role) {
    case 'owner':
    case 'admin':
    case 'approver':
      return true;
    case 'member':
      return false;
    default:
      return assertNever(role);
  }
}

function sameSource(a: EntrySource, b: EntrySource): boolean {
  return a.tier === b.tier && a.origin === b.origin;
}

/**
 * Whether this decider may make this decision now. Only a human decides: the kind is checked first and on its
 * own, so a service token that somehow carries `approvals:decide` still cannot. The scope and role are both
 * checked (a user token keeps its scopes when its owner's role is lowered). Four-eyes binds approvals only:
 * an author withdrawing their own change by denying it widens nothing.
 */
export function canDecide(input: CanDecideInput): DecisionAuthority {
  const { decider, request } = input;
  switch (decider.kind) {
    case 'definition_source':
      return sameSource(decider.source, request.source)
        ? { ok: false, reason: 'source_cannot_approve_itself' }
        : { ok: false, reason: 'not_a_human_principal' };
    case 'agent_token':
    case 'worker_token':
    case 'gateway_token':
      return { ok: false, reason: 'not_a_human_principal' };
    case 'session':
    case 'user_token':
      break;
    default:
      return assertNever(decider);
  }
  if (!decider.scopes.includes(DECIDE_SCOPE))
    return { ok: false, reason: 'missing_scope', scope: DECIDE_SCOPE };
  if (!roleMayDecide(decider.role)) return { ok: false, reason: 'role_cannot_decide' };
  if (input.fourEyes && request.verb === 'approve' && request.authorUserIds.includes(decider.userId)) {
    return { ok: false, reason: 'author_cannot_approve' };
  }
  const review = decisionMatchesReview(request);
  if (!review.ok) return { ok: false, reason: review.reason, changed: review.changed };
  return { ok: true, deciderUserId: decider.userId };
}
