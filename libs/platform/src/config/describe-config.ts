import type { z } from 'zod';
import { resolveFieldMeta } from './config-field.js';
import type { ConfigSchema } from './parse-config.js';

export type ConfigRow = {
  name: string;
  /** Human label of the type (e.g. `port`, `URL`, `development | test | production`). */
  type: string;
  /** The default as the env-var string, or undefined when there is none. */
  default: string | undefined;
  required: boolean;
  secret: boolean;
  description: string;
};

/** One row per variable, in schema order: the source of README's configuration table and the compose test. */
export function describeConfig(schema: ConfigSchema): ConfigRow[] {
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const meta = resolveFieldMeta(field);
    return {
      name,
      type: meta.typeLabel ?? meta.innerType,
      default: meta.defaultValue,
      required: meta.required,
      secret: meta.secret,
      description: meta.description ?? '',
    };
  });
}

/** Names of the variables flagged secret: fed to the logger's redaction. */
export function secretConfigKeys(schema: ConfigSchema): string[] {
  return describeConfig(schema)
    .filter((row) => row.secret)
    .map((row) => row.name);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

/** A Markdown table of the rows, for the README generator. */
export function renderConfigTable(rows: readonly ConfigRow[]): string {
  const lines = ['| Variable | Type | Default | Secret | Description |', '| --- | --- | --- | --- | --- |'];
  for (const row of rows) {
    const fallback = row.required ? '**required**' : '';
    const defaultText =
      row.default === undefined ? fallback : row.default === '' ? '(empty)' : `\`${row.default}\``;
    lines.push(
      `| \`${row.name}\` | ${cell(row.type)} | ${cell(defaultText)} | ${row.secret ? 'yes' : ''} | ${cell(row.description)} |`,
    );
  }
  return lines.join('\n');
}

/** The values of the secret variables in a parsed config, for the logger's scrubber. */
export function secretConfigValues(
  schema: ConfigSchema,
  config: Readonly<Record<string, unknown>>,
): string[] {
  return secretConfigKeys(schema)
    .map((name) => config[name])
    .filter((value): value is string => typeof value === 'string' && value.length > 0);
}
