import { ProblemError, problemJson, type ProblemDocument } from '@gatehouse/platform';

// The expected refusals of the admin commands, one factory each, so codes and titles are the same on every
// surface. Details are written for the client and never contain a submitted value or infrastructure text.

export interface FieldError {
  /** Dotted path of the offending field (`scopes.0`); empty for the input as a whole. */
  readonly path: string;
  readonly message: string;
}

/** `validation_failed` with the offending fields listed (paths and messages only, never the values). */
export class ValidationProblemError extends ProblemError {
  readonly errors: readonly FieldError[];

  constructor(errors: readonly FieldError[], detail = 'The input does not match the command.') {
    super({ status: 400, code: 'validation_failed', title: 'Validation failed', detail });
    this.name = 'ValidationProblemError';
    this.errors = errors;
  }

  override toProblem(instance?: string): ProblemDocument & { errors: FieldError[] } {
    const base = problemJson({
      status: this.status,
      code: this.code,
      title: this.title,
      ...(this.detail !== undefined ? { detail: this.detail } : {}),
      ...(instance !== undefined ? { instance } : {}),
    });
    return { ...base, errors: this.errors.map((e) => ({ path: e.path, message: e.message })) };
  }
}

export function unauthenticated(): ProblemError {
  return new ProblemError({
    status: 401,
    code: 'unauthenticated',
    title: 'Unauthenticated',
    detail: 'Sign in, or send an API token as `Authorization: Bearer <token>`.',
  });
}

/** The caller's credential lacks the command's scope (only ever about the caller's own tenant). */
export function forbiddenScope(scope: string): ProblemError {
  return new ProblemError({
    status: 403,
    code: 'forbidden_scope',
    title: 'Forbidden',
    detail: `This needs the scope ${scope}, which your credential does not hold.`,
  });
}

/** The command's declaration does not accept this kind of credential (`callers`), whatever its scopes. */
export function forbiddenCaller(kind: string): ProblemError {
  return new ProblemError({
    status: 403,
    code: 'forbidden_caller',
    title: 'Forbidden',
    detail: `This command does not accept ${kind === 'session' ? 'a dashboard session' : `a ${kind} token`}.`,
  });
}

/** A worker or gateway token whose pool the operator's WORKER_POOLS no longer opens to it. */
export function poolNotOpen(): ProblemError {
  return new ProblemError({
    status: 403,
    code: 'pool_not_open',
    title: 'Forbidden',
    detail: "The pool this token names is not open to it in the operator's current configuration.",
  });
}

/** The scope is held but the caller's role or binding does not allow this particular change. */
export function forbidden(detail: string): ProblemError {
  return new ProblemError({ status: 403, code: 'forbidden', title: 'Forbidden', detail });
}

/** Also for another tenant's ids: row-level security makes them invisible, and we never confirm they exist. */
export function notFound(what: string): ProblemError {
  return new ProblemError({ status: 404, code: 'not_found', title: 'Not found', detail: `No such ${what}.` });
}

export function conflict(detail: string): ProblemError {
  return new ProblemError({ status: 409, code: 'conflict', title: 'Conflict', detail });
}

export function badCursor(): ProblemError {
  return new ProblemError({
    status: 400,
    code: 'bad_cursor',
    title: 'Bad cursor',
    detail: 'The cursor is not one this list handed out. Start again without a cursor.',
  });
}
