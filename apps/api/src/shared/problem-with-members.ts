import { ProblemError, type ProblemDocument, type ProblemInit } from '@gatehouse/platform';

type ExtraValue = string | readonly string[] | null;

/**
 * A problem with a few machine-readable members next to `code` (REST body members, GraphQL extensions): enum values
 * and ids only, never a definition value, a URL or an argv.
 */
export class ProblemWithMembersError extends ProblemError {
  readonly extra: Readonly<Record<string, ExtraValue>>;

  constructor(init: ProblemInit, extra: Readonly<Record<string, ExtraValue>>) {
    super(init);
    this.name = 'ProblemWithMembersError';
    this.extra = extra;
  }

  override toProblem(instance?: string): ProblemDocument & Record<string, unknown> {
    const copied = Object.fromEntries(
      Object.entries(this.extra).map(([key, value]) => [key, Array.isArray(value) ? [...value] : value]),
    );
    return { ...copied, ...super.toProblem(instance) };
  }
}
