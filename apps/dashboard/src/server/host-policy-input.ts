import type { ApiProblem, FieldProblem } from './api-problem';

// The Host policy editor's text format, read and written here (pure, unit-tested). One entry per line, blank
// lines ignored. A command (stdio command or header helper) is an exact argv prefix written as a JSON array of
// strings — `["npx", "-y", "@acme/deploy-mcp"]` — because argv strings may hold spaces and quotes, and
// space-separated words would need a quoting rule of their own. CIDRs and origins are one plain value per line.
// Every problem, ours or the API's, is reported by the LINE the person typed, so it can be found and fixed.

export const LIST_FIELDS = ['stdioCommands', 'headerHelpers', 'privateCidrs', 'traceContextOrigins'] as const;
export type ListField = (typeof LIST_FIELDS)[number];
export const ARGV_FIELDS: readonly ListField[] = ['stdioCommands', 'headerHelpers'];

export const LIST_FIELD_LABELS: Readonly<Record<ListField, string>> = {
  stdioCommands: 'Stdio commands',
  headerHelpers: 'Header helpers',
  privateCidrs: 'Private ranges',
  traceContextOrigins: 'Trace context origins',
};

// The API's limits (libs/commands host-policy.command.ts), checked here first so a mistake names its line.
const MAX_ENTRIES = 100;
const MAX_ARGV = 64;
const MAX_ARG_CHARS = 4096;
const MAX_CIDR_CHARS = 64;
const MAX_ORIGIN_CHARS = 2048;
const ORIGIN = /^https?:\/\/[^/?#\s]+$/;
// Shape only (digits, hex, dots and colons, a prefix length); the API decides whether it is a real CIDR.
const CIDR_SHAPE = /^[0-9a-fA-F.:]+\/\d{1,3}$/;

export interface ParsedLines<T> {
  readonly entries: readonly T[];
  /** The 1-based line of each entry (blank lines are skipped, so entry index and line differ). */
  readonly lines: readonly number[];
  readonly errors: readonly string[];
}

function nonBlankLines(text: string): { line: number; text: string }[] {
  return text
    .split(/\r?\n/)
    .map((value, index) => ({ line: index + 1, text: value.trim() }))
    .filter((entry) => entry.text !== '');
}

function argvOf(text: string): string[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'write it as a JSON array of strings, for example ["npx", "-y", "@acme/server"]';
  }
  if (!Array.isArray(value) || !value.every((part): part is string => typeof part === 'string')) {
    return 'must be a JSON array of strings, for example ["npx", "-y", "@acme/server"]';
  }
  if (value.length === 0) return 'must name at least the command';
  if (value.length > MAX_ARGV) return `has more than ${MAX_ARGV} strings`;
  if (value.some((part) => part.length === 0)) return 'has an empty string';
  if (value.some((part) => part.length > MAX_ARG_CHARS))
    return `has a string longer than ${MAX_ARG_CHARS} characters`;
  return value;
}

function collect<T>(
  text: string,
  read: (line: string) => T | string,
  isError: (value: T | string) => value is string,
): ParsedLines<T> {
  const entries: T[] = [];
  const lines: number[] = [];
  const errors: string[] = [];
  const rows = nonBlankLines(text);
  if (rows.length > MAX_ENTRIES) errors.push(`At most ${MAX_ENTRIES} lines (there are ${rows.length}).`);
  for (const row of rows) {
    const value = read(row.text);
    if (isError(value)) errors.push(`Line ${row.line}: ${value}.`);
    else {
      entries.push(value);
      lines.push(row.line);
    }
  }
  return { entries, lines, errors };
}

/** Argv prefixes, one JSON array per line. */
export function parseArgvLines(text: string): ParsedLines<string[]> {
  return collect<string[]>(text, argvOf, (value): value is string => typeof value === 'string');
}

function cidrOf(text: string): { cidr: string } | string {
  if (text.length > MAX_CIDR_CHARS || !CIDR_SHAPE.test(text)) return 'must be a CIDR such as 10.20.0.0/16';
  return { cidr: text };
}

function originOf(text: string): { origin: string } | string {
  if (text.length > MAX_ORIGIN_CHARS || !ORIGIN.test(text)) {
    return 'must be an origin: scheme://host[:port], without path, query or fragment';
  }
  return { origin: text };
}

export function parseCidrLines(text: string): ParsedLines<string> {
  const parsed = collect(text, cidrOf, (value): value is string => typeof value === 'string');
  return { ...parsed, entries: parsed.entries.map((entry) => entry.cidr) };
}

export function parseOriginLines(text: string): ParsedLines<string> {
  const parsed = collect(text, originOf, (value): value is string => typeof value === 'string');
  return { ...parsed, entries: parsed.entries.map((entry) => entry.origin) };
}

/** One argv prefix as the editor writes it: `["npx", "-y", "@acme/server"]` (JSON, with a space after commas). */
export function formatArgv(argv: readonly string[]): string {
  return `[${argv.map((part) => JSON.stringify(part)).join(', ')}]`;
}

export function formatArgvLines(argvs: readonly (readonly string[])[]): string {
  return argvs.map(formatArgv).join('\n');
}

function lineOf(
  lines: Partial<Record<ListField, readonly number[]>>,
  field: ListField,
  index: number,
): number {
  return lines[field]?.[index] ?? index + 1;
}

function isListField(value: string): value is ListField {
  return (LIST_FIELDS as readonly string[]).includes(value);
}

/**
 * The API's refusal of a HostPolicy as field errors by line, from the problem's `errors[]`: `validation_failed`
 * names paths such as `stdioCommands.2.0` (a message of its own), `outside_operator_ceiling` names the entry
 * (`privateCidrs.0`) with a message that continues the sentence ("is outside the ceiling of ...").
 */
export function hostPolicyFieldErrors(
  problem: ApiProblem,
  lines: Partial<Record<ListField, readonly number[]>>,
): FieldProblem[] {
  const joiner = problem.code === 'outside_operator_ceiling' ? ' ' : ': ';
  return problem.errors.flatMap((error): FieldProblem[] => {
    const [field, index] = error.path.split('.');
    if (field === undefined) return [];
    if (!isListField(field)) return [{ path: field, message: error.message }];
    const position = Number(index);
    return Number.isInteger(position)
      ? [{ path: field, message: `Line ${lineOf(lines, field, position)}${joiner}${error.message}` }]
      : [{ path: field, message: error.message }];
  });
}

/**
 * The pools on which a saved command would be allowed today (the pool allows the kind and one of its ceiling
 * prefixes starts the command): the API checked this when the policy was saved, but the operator's ceiling
 * may have changed since.
 */
export function poolsAllowingCommand(
  argv: readonly string[],
  kind: 'stdio' | 'headerHelpers',
  pools: readonly {
    readonly pool: string;
    readonly stdio: boolean;
    readonly headerHelpers: boolean;
    readonly commandCeiling: readonly (readonly string[])[];
  }[],
): string[] {
  return pools
    .filter((pool) => (kind === 'stdio' ? pool.stdio : pool.headerHelpers))
    .filter((pool) =>
      pool.commandCeiling.some(
        (prefix) => prefix.length <= argv.length && prefix.every((part, index) => argv[index] === part),
      ),
    )
    .map((pool) => pool.pool);
}
