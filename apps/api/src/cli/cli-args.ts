import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './cli-io';

/**
 * node:util parseArgs, strict, with errors rewritten so they never echo a value: a stray positional could
 * be a password typed in the wrong place.
 */
type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<const T extends OptionsConfig>(args: readonly string[], options: T) {
  const passwordInArgv = args.find((arg) => /^--password(=|$)/.test(arg));
  if (passwordInArgv !== undefined) {
    throw usageError(
      'passwords are never taken from the command line: use --password-stdin or --password-env VAR',
    );
  }
  try {
    return parseArgs({ args: [...args], options, strict: true as const, allowPositionals: false as const })
      .values;
  } catch (error) {
    throw usageError(describeParseError(error));
  }
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  // Not `instanceof Error`: node's own errors may come from another realm (a jest sandbox, a vm context).
  const raw = (error as { message?: unknown } | null)?.message;
  const message = typeof raw === 'string' ? raw : '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${/'(--?[A-Za-z0-9-]+)/.exec(message)?.[1] ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'unexpected argument (every value follows an --option)';
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `option ${/'(--?[A-Za-z0-9-]+)/.exec(message)?.[1] ?? ''} needs a value`.replace('  ', ' ');
    default:
      return 'invalid arguments';
  }
}

/** A required string option, or a usage error naming it. */
export function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim().length === 0) throw usageError(`--${option} is required`);
  return value;
}

/** `a,b, c` → ['a', 'b', 'c']; undefined → []. */
export function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}
