import type { z } from 'zod';

/** A config schema: one zod object whose keys are environment variable names. */
export type ConfigSchema = z.ZodObject;

export type Env = Readonly<Record<string, string | undefined>>;

export type ConfigIssue = { variable: string; problem: string };

export type ParseConfigResult<T> =
  { ok: true; config: T } | { ok: false; reason: 'invalid_config'; issues: ConfigIssue[]; message: string };

/**
 * Picks only the schema's variables from the environment. An empty value counts as unset, so `FOO=` in a
 * compose file or .env means "use the default" rather than "the empty string".
 */
function pickVariables(schema: ConfigSchema, env: Env): Record<string, string | undefined> {
  const picked: Record<string, string | undefined> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = env[name];
    picked[name] = value === undefined || value.length === 0 ? undefined : value;
  }
  return picked;
}

/** Zod messages do not include the input, but a custom refinement might: never let a value through. */
function scrub(problem: string, value: string | undefined): string {
  const oneLine = problem.replace(/\s+/g, ' ').trim();
  if (value === undefined || value.length < 3) return oneLine;
  return oneLine.split(value).join('[value]');
}

function toIssues(error: z.ZodError, input: Record<string, string | undefined>): ConfigIssue[] {
  const seen = new Set<string>();
  const issues: ConfigIssue[] = [];
  for (const issue of error.issues) {
    const head = issue.path[0];
    const variable = typeof head === 'string' ? head : '(config)';
    if (seen.has(variable)) continue;
    seen.add(variable);
    const value = input[variable];
    const problem =
      value === undefined && issue.code === 'invalid_type'
        ? 'is required but not set'
        : scrub(issue.message, value);
    issues.push({ variable, problem });
  }
  return issues;
}

/** One line naming each bad variable and what is wrong with it; never a value. */
export function formatConfigIssues(issues: readonly ConfigIssue[]): string {
  return `invalid configuration: ${issues.map((i) => `${i.variable} ${i.problem}`).join('; ')}`;
}

/** Parses the environment against the app's config schema. Pure: never exits, never logs. */
export function parseConfig<S extends ConfigSchema>(schema: S, env: Env): ParseConfigResult<z.output<S>> {
  const input = pickVariables(schema, env);
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, config: result.data };
  const issues = toIssues(result.error, input);
  return { ok: false, reason: 'invalid_config', issues, message: formatConfigIssues(issues) };
}

export type WriteLine = (line: string) => void;
export type Exit = (code: number) => never;

const writeStderr: WriteLine = (line) => {
  process.stderr.write(line);
};
const exitProcess: Exit = (code) => process.exit(code);

/**
 * For an app's main: the parsed config, or one line on stderr and exit code 1. Apps call this once at boot
 * and pass the result down; libs never read the environment.
 */
export function loadConfigOrExit<S extends ConfigSchema>(
  schema: S,
  env: Env,
  write: WriteLine = writeStderr,
  exit: Exit = exitProcess,
): z.output<S> {
  const result = parseConfig(schema, env);
  if (result.ok) return result.config;
  write(`${result.message}\n`);
  return exit(1);
}
