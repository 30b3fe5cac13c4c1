import { ProblemError, type ProblemDocument, type ProblemInit } from '@gatehouse/platform';

// The refusals of the approval commands, one factory each, with stable codes. Extra fields are enum values
// (activation states and reasons, reviewed fields): never a definition value, never a secret.

type ExtraValue = string | readonly string[] | null;

/** A problem carrying a few machine-readable fields next to `code` (REST body members, GraphQL extensions). */
export class ApprovalProblemError extends ProblemError {
  readonly extra: Readonly<Record<string, ExtraValue>>;

  constructor(init: ProblemInit, extra: Readonly<Record<string, ExtraValue>>) {
    super(init);
    this.name = 'ApprovalProblemError';
    this.extra = extra;
  }

  override toProblem(instance?: string): ProblemDocument & Record<string, unknown> {
    const copied = Object.fromEntries(
      Object.entries(this.extra).map(([key, value]) => [key, Array.isArray(value) ? [...value] : value]),
    );
    return { ...copied, ...super.toProblem(instance) };
  }
}

/** The server is in the view but there is nothing a person could approve for it there, now. */
export function notApprovable(
  detail: string,
  state: { activationState: string | null; reasons: readonly string[]; entryStatus: string },
): ApprovalProblemError {
  return new ApprovalProblemError(
    { status: 409, code: 'not_approvable', title: 'Not approvable', detail },
    { activationState: state.activationState, reasons: [...state.reasons], entryStatus: state.entryStatus },
  );
}

export function requestNotOpen(status: string): ApprovalProblemError {
  return new ApprovalProblemError(
    {
      status: 409,
      code: 'request_not_open',
      title: 'Request not open',
      detail: 'This request was already decided or replaced by a newer one; decide the open request instead.',
    },
    { requestStatus: status },
  );
}

export function deciderNotHuman(): ProblemError {
  return new ProblemError({
    status: 403,
    code: 'decider_not_human',
    title: 'Forbidden',
    detail: 'Only a person (a dashboard session or their own user token) decides approval requests.',
  });
}

export function roleCannotDecide(): ProblemError {
  return new ProblemError({
    status: 403,
    code: 'role_cannot_decide',
    title: 'Forbidden',
    detail: 'Only owners, admins and approvers decide approval requests.',
  });
}

export function fourEyesAuthor(): ProblemError {
  return new ProblemError({
    status: 403,
    code: 'four_eyes_author',
    title: 'Forbidden',
    detail:
      'Four-eyes is on and you authored a change this request covers: another approver must approve it.',
  });
}

export function changedSinceReview(changed: readonly string[]): ApprovalProblemError {
  return new ApprovalProblemError(
    {
      status: 409,
      code: 'changed_since_review',
      title: 'Changed since review',
      detail:
        'The server changed after you reviewed it. Read the open request again and decide on what it is now.',
    },
    { changed: [...changed] },
  );
}

/**
 * The source the request came from cannot be read now: nothing in it can be reviewed again, so this is not
 * `changed_since_review`; the source needs an owner's or admin's attention (rewrite it, or the operator restores
 * the key its document was sealed with).
 */
export function sourceUnreadable(source: 'unreadable' | 'missing'): ApprovalProblemError {
  return new ApprovalProblemError(
    {
      status: 409,
      code: 'source_unreadable',
      title: 'Source unreadable',
      detail:
        source === 'missing'
          ? 'The definition source this request came from no longer exists, so nothing of it can be approved. ' +
            'Write the source again, then decide the request it opens.'
          : 'The definition source this request came from cannot be read (its stored document does not open). ' +
            'An owner or admin must write it again before anything of it can be decided.',
    },
    { source },
  );
}

export function alreadyRevoked(): ProblemError {
  return new ProblemError({
    status: 409,
    code: 'already_revoked',
    title: 'Already revoked',
    detail: 'This decision was revoked already.',
  });
}
