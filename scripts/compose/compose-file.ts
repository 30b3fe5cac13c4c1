import { z } from 'zod';
import { parse } from 'yaml';

// The subset of the Compose file format Gatehouse's docker-compose.yml uses, read for its test: each service's
// command, environment, build target, ports and health check, with Compose's `${...}` interpolation.

const serviceSchema = z.object({
  image: z.string().optional(),
  build: z.object({ context: z.string(), target: z.string().optional() }).optional(),
  command: z.array(z.string()).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  ports: z.array(z.string()).optional(),
  healthcheck: z.object({ test: z.array(z.string()) }).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
});

const composeFileSchema = z.object({ services: z.record(z.string(), serviceSchema) });

export type ComposeService = z.infer<typeof serviceSchema>;
export type ComposeFile = z.infer<typeof composeFileSchema>;

/** Parses the YAML (with `<<:` merge keys, as Compose does) and checks the shape we rely on. */
export function readComposeFile(text: string): ComposeFile {
  return composeFileSchema.parse(parse(text, { merge: true }));
}

export type InterpolationResult =
  { ok: true; value: string } | { ok: false; reason: 'required_variable_missing'; variable: string };

/**
 * Compose's interpolation: `$$` is a literal `$`; `${VAR}`, `${VAR:-default}` (default when unset or empty),
 * `${VAR-default}` (when unset), `${VAR:?message}` / `${VAR?message}` (refuse to start without it).
 */
export function interpolate(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): InterpolationResult {
  let missing: string | undefined;
  const value = text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (
      match,
      name: string | undefined,
      colon: string | undefined,
      operator: string | undefined,
      argument: string | undefined,
    ) => {
      if (match === '$$') return '$';
      const variable = name ?? '';
      const current = env[variable];
      const unset = current === undefined || (colon === ':' && current === '');
      if (!unset) return current ?? '';
      if (operator === '-') return argument ?? '';
      if (operator === '?') {
        missing ??= variable;
        return '';
      }
      return '';
    },
  );
  return missing === undefined
    ? { ok: true, value }
    : { ok: false, reason: 'required_variable_missing', variable: missing };
}

/** A service's environment after interpolation; throws naming the variable Compose would refuse to run without. */
export function serviceEnvironment(
  service: ComposeService,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(service.environment ?? {})) {
    const interpolated = interpolate(raw, env);
    if (!interpolated.ok) throw new Error(`${name}: required variable ${interpolated.variable} is not set`);
    result[name] = interpolated.value;
  }
  return result;
}

/** The script a command runs with node (`node dist/...js` or inside `sh -c '... node file.js'`). */
export function nodeEntryOf(command: readonly string[]): string | undefined {
  const [program, ...args] = command;
  if (program === 'node') return args.find((arg) => arg.endsWith('.js'));
  if (program === 'sh' && args[0] === '-c' && args[1]) return /\bnode\s+(\S+\.js)\b/.exec(args[1])?.[1];
  return undefined;
}

/** The TypeScript source a `dist/` path is compiled from (scripts/build.mjs mirrors the tree). */
export function sourceOfBuiltFile(builtPath: string): string | undefined {
  const match = /^dist\/(.+)\.js$/.exec(builtPath);
  return match ? `${match[1]}.ts` : undefined;
}
