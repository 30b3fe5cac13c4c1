import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './cli-io';

// node:util parseArgs, strict, with errors rewritten so they never echo a value (a token pasted in the wrong place
// must not come back on a terminal or into a CI log). A token is never an option: `--token` is refused by name.

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

const HELP = { help: { type: 'boolean', short: 'h', default: false } } as const;

export interface ParsedArgs<V> {
  readonly values: V;
  readonly positionals: readonly string[];
}

export function parseCommandArgs<const T extends OptionsConfig>(
  args: readonly string[],
  options: T,
  positionals: { readonly min: number; readonly max: number } = { min: 0, max: 0 },
) {
  if (args.some((arg) => /^--token(=|$)/.test(arg))) {
    throw usageError(
      'a token is never taken from the command line: set GATEHOUSE_TOKEN or run gatehouse login',
    );
  }
  const all = { ...HELP, ...options } as typeof HELP & T;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: all,
      strict: true as const,
      allowPositionals: true as const,
    });
  } catch (error) {
    throw usageError(describeParseError(error));
  }
  if ((parsed.values as { help?: unknown }).help !== true) {
    if (parsed.positionals.length > positionals.max) throw usageError('unexpected argument');
    if (parsed.positionals.length < positionals.min) throw usageError('missing argument');
  }
  return parsed;
}

function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  // Not `instanceof Error`: node's own errors may come from another realm (a jest sandbox).
  const raw = (error as { message?: unknown } | null)?.message;
  const message = typeof raw === 'string' ? raw : '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${/'(--?[A-Za-z0-9-]+)/.exec(message)?.[1] ?? ''}`.trim();
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

/** One of the listed words, or a usage error naming them. */
export function oneOf<const W extends string>(
  value: string | undefined,
  option: string,
  words: readonly W[],
): W {
  const given = required(value, option);
  if (!(words as readonly string[]).includes(given))
    throw usageError(`--${option} must be one of ${words.join(', ')}`);
  return given as W;
}
