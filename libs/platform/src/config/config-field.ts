import { z } from 'zod';

/** What a config schema knows about one environment variable beyond its zod type. */
export type ConfigFieldMeta = {
  /** The value must never be logged or printed; drives log redaction. */
  secret?: boolean;
  /** A short human label for the variable's type in the configuration table (e.g. `port`, `URL`). */
  typeLabel?: string;
};

/**
 * Our own zod registry, so config flags never collide with JSON-schema metadata in zod's global registry.
 * Flags are added on clones: zod's registry lookup inherits metadata from a clone's parent, so `.describe()`
 * after `secret()` keeps the flag, and the schema passed in is never mutated.
 */
export const configFieldRegistry = z.registry<ConfigFieldMeta>();

function withMeta<T extends z.ZodType>(schema: T, meta: ConfigFieldMeta): T {
  const flagged = schema.clone();
  configFieldRegistry.add(flagged, meta);
  return flagged;
}

/** Marks a config field secret: its value never appears in logs, errors or the configuration table. */
export function secret<T extends z.ZodType>(schema: T): T {
  return withMeta(schema, { secret: true });
}

/** Names the field's type for the configuration table. */
export function typeLabel<T extends z.ZodType>(schema: T, label: string): T {
  return withMeta(schema, { typeLabel: label });
}

/** Wrapper schemas that keep the field's meaning (optional, default...) and hold the real type inside. */
function innerOf(schema: z.ZodType): z.ZodType | undefined {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return (def as unknown as { innerType: z.ZodType }).innerType;
    case 'pipe':
      return (def as unknown as { in: z.ZodType }).in;
    default:
      return undefined;
  }
}

/** The chain from the field's outermost wrapper to its innermost type. */
export function fieldChain(schema: z.ZodType): z.ZodType[] {
  const chain: z.ZodType[] = [];
  for (
    let current: z.ZodType | undefined = schema;
    current && chain.length < 32;
    current = innerOf(current)
  ) {
    chain.push(current);
  }
  return chain;
}

export type ResolvedFieldMeta = {
  secret: boolean;
  typeLabel?: string;
  description?: string;
  /** The default as an env-var string, when the field has one. */
  defaultValue?: string;
  required: boolean;
  innerType: string;
};

/** The default as one would write it in the environment: lists comma-separated, objects (JSON variables) as JSON. */
function envString(value: unknown): string {
  if (Array.isArray(value)) return value.map(envString).join(',');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** Reads the field's metadata through its wrappers; the outermost value wins. */
export function resolveFieldMeta(schema: z.ZodType): ResolvedFieldMeta {
  const chain = fieldChain(schema);
  let secretFlag = false;
  let label: string | undefined;
  let description: string | undefined;
  let defaultValue: string | undefined;
  for (const link of chain) {
    const meta = configFieldRegistry.get(link);
    if (meta?.secret) secretFlag = true;
    label ??= meta?.typeLabel;
    description ??= z.globalRegistry.get(link)?.description;
    const def = link._zod.def;
    if (defaultValue === undefined && (def.type === 'default' || def.type === 'prefault')) {
      defaultValue = envString((def as unknown as { defaultValue: unknown }).defaultValue);
    }
  }
  const innermost = chain[chain.length - 1] ?? schema;
  // zod marks fields that may be absent from an object with `optin` (optional or defaulted).
  const required = schema._zod.optin === undefined;
  const result: ResolvedFieldMeta = { secret: secretFlag, required, innerType: innermost._zod.def.type };
  if (label !== undefined) result.typeLabel = label;
  if (description !== undefined) result.description = description;
  if (defaultValue !== undefined) result.defaultValue = defaultValue;
  return result;
}
