import type { ProblemCode } from '@gatehouse/contracts';

/** The media type of every error body (RFC 9457). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** An RFC 9457 problem document with our stable machine-readable `code` extension. */
export type ProblemDocument = {
  type: string;
  title: string;
  status: number;
  code: ProblemCode;
  detail?: string;
  instance?: string;
};

export type ProblemInit = {
  status: number;
  /** Stable snake_case code clients switch on (e.g. `not_found`): one of PROBLEM_CODES (libs/contracts). */
  code: ProblemCode;
  /** Short, human, the same for every occurrence of the code. */
  title: string;
  /** This occurrence, written for the client: never an infrastructure message. */
  detail?: string;
  instance?: string;
};

/** `type` is a stable URN per code: no documentation host is promised, and clients switch on `code`. */
export function problemTypeUri(code: ProblemCode): string {
  return `urn:gatehouse:problem:${code}`;
}

/** Builds the problem+json body. */
export function problemJson(init: ProblemInit): ProblemDocument {
  const document: ProblemDocument = {
    type: problemTypeUri(init.code),
    title: init.title,
    status: init.status,
    code: init.code,
  };
  if (init.detail !== undefined) document.detail = init.detail;
  if (init.instance !== undefined) document.instance = init.instance;
  return document;
}

/**
 * Thrown by request-handling code for an outcome the client must see as a problem document. Everything in
 * it is sent to the client as is, so it must hold no secret and no infrastructure text.
 */
export class ProblemError extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string;
  readonly detail: string | undefined;

  constructor(init: ProblemInit) {
    super(`${init.code}: ${init.detail ?? init.title}`);
    this.name = 'ProblemError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
  }

  toProblem(instance?: string): ProblemDocument {
    return problemJson({
      status: this.status,
      code: this.code,
      title: this.title,
      ...(this.detail !== undefined ? { detail: this.detail } : {}),
      ...(instance !== undefined ? { instance } : {}),
    });
  }
}
