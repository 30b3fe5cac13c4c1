import { isProblemCode, type ProblemCode } from '@gatehouse/contracts';
import { z } from 'zod';
import { CliError, EXIT } from '../cli-io';

/** The problem+json document the API answers every refusal with (RFC 9457 and our stable `code`). */
export const problemDocument = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  code: z.string(),
  detail: z.string().optional(),
  /** validation_failed: which fields, and why (never a value). */
  errors: z.array(z.looseObject({ path: z.unknown(), message: z.string() })).optional(),
});

/**
 * The API refused a command: its HTTP status and stable `code` (one of PROBLEM_CODES, or `unknown_code` for a code
 * this CLI does not know yet, kept as `rawCode`). Exit 1; the message is the API's title/detail, which it writes for
 * clients (never an infrastructure message, never a secret).
 */
export class ApiProblemError extends CliError {
  readonly code: ProblemCode | 'unknown_code';

  constructor(
    readonly command: string,
    readonly status: number,
    readonly rawCode: string,
    readonly title: string,
    readonly detail: string | undefined,
    readonly fields: readonly string[],
  ) {
    const fieldNote = fields.length > 0 ? ` (${fields.slice(0, 5).join('; ')})` : '';
    super(`${command}: ${rawCode}: ${detail ?? title}${fieldNote}`, EXIT.refused);
    this.name = 'ApiProblemError';
    this.code = isProblemCode(rawCode) ? rawCode : 'unknown_code';
  }
}

/** The API (or the gateway) cannot be reached, or what answered is not it. Exit 3. */
export class UnreachableError extends CliError {
  constructor(message: string) {
    super(message, EXIT.unreachable);
    this.name = 'UnreachableError';
  }
}
