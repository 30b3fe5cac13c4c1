import { createKeyClassifier } from './sensitive-names.js';
import { createTextScrubber } from './text-scrubber.js';

/** Deeper than this, a subtree is replaced whole: nothing below the bound can print. */
export const MAX_SCRUB_DEPTH = 32;
/** Values visited per log line; past it the rest of the line's values are replaced. */
export const MAX_SCRUB_NODES = 5_000;
/** Causes followed from one error (cause, cause's cause, ...), and entries of an AggregateError. */
const MAX_ERROR_CHAIN = 8;

export interface LogScrubberOptions {
  readonly censor: string;
  /** Further property names to redact whole (the app's secret config variables). */
  readonly secretKeys?: readonly string[];
  /** Exact secret values (and fragments) to replace inside any text. */
  readonly needles?: readonly string[];
}

export interface LogScrubber {
  /** A scrubbed copy of a log line's fields (what `formatters.log` and `formatters.bindings` return). */
  readonly fields: (fields: Record<string, unknown>) => Record<string, unknown>;
  /** A scrubbed copy of any one value (a format argument). */
  readonly value: (value: unknown) => unknown;
  readonly text: (text: string) => string;
}

interface Walk {
  nodes: number;
  readonly ancestors: Set<object>;
}

/**
 * One linear walk per log line: every property name is classified (case-insensitive, at any depth), every
 * string is scrubbed as text, errors are serialized with their message, stack, own fields and causes scrubbed.
 * Cycle-safe and bounded in depth and size; never mutates what the caller logged.
 */
export function createLogScrubber(options: LogScrubberOptions): LogScrubber {
  const { censor } = options;
  const classify = createKeyClassifier(options.secretKeys);
  const text = createTextScrubber({ censor, classify, needles: options.needles ?? [] });
  const limited = `${censor} (depth limit)`;
  const truncated = `${censor} (size limit)`;
  // A throwing getter or a revoked proxy: the value is not logged, and the log call does not throw.
  const unreadable = `${censor} (unreadable)`;

  function containerValue(value: unknown): unknown {
    if (value === null || value === undefined) return value;
    if (Array.isArray(value)) return value.map(() => censor);
    if (typeof value === 'object' && !(value instanceof Error)) {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) out[key] = censor;
      return out;
    }
    return censor;
  }

  function property(key: string, value: unknown, depth: number, walk: Walk): unknown {
    switch (classify(key)) {
      case 'sensitive':
        return value === null || value === undefined ? value : censor;
      case 'container':
        return containerValue(value);
      default:
        return scrub(value, depth, walk);
    }
  }

  function object(source: object, depth: number, walk: Walk): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(source)) {
      let value: unknown;
      try {
        value = (source as Record<string, unknown>)[key];
      } catch {
        out[key] = unreadable;
        continue;
      }
      out[key] = property(key, value, depth, walk);
    }
    return out;
  }

  function error(err: Error, depth: number, walk: Walk, chain: number): Record<string, unknown> {
    const out: Record<string, unknown> = {
      type: err.constructor?.name && err.constructor.name !== 'Object' ? err.constructor.name : err.name,
      message: text(String(err.message)),
    };
    if (typeof err.stack === 'string') out.stack = text(err.stack);
    for (const key of Object.keys(err)) {
      if (key === 'cause' || key === 'errors' || key in out) continue;
      let value: unknown;
      try {
        value = (err as unknown as Record<string, unknown>)[key];
      } catch {
        out[key] = unreadable;
        continue;
      }
      out[key] = property(key, value, depth, walk);
    }
    if (err.cause !== undefined) {
      out.cause =
        chain >= MAX_ERROR_CHAIN
          ? truncated
          : err.cause instanceof Error
            ? enter(err.cause, depth, walk, () => error(err.cause as Error, depth + 1, walk, chain + 1))
            : scrub(err.cause, depth, walk);
    }
    if (err instanceof AggregateError && Array.isArray(err.errors)) {
      out.errors = err.errors
        .slice(0, MAX_ERROR_CHAIN)
        .map((inner: unknown) =>
          inner instanceof Error
            ? enter(inner, depth, walk, () => error(inner, depth + 1, walk, chain + 1))
            : scrub(inner, depth, walk),
        );
    }
    return out;
  }

  function enter(node: object, depth: number, walk: Walk, visit: () => unknown): unknown {
    if (walk.ancestors.has(node)) return '[circular]';
    if (depth >= MAX_SCRUB_DEPTH) return limited;
    walk.ancestors.add(node);
    try {
      return visit();
    } finally {
      walk.ancestors.delete(node);
    }
  }

  function scrub(value: unknown, depth: number, walk: Walk): unknown {
    if (typeof value === 'string') return text(value);
    if (value === null || typeof value !== 'object') return value;
    try {
      return scrubObject(value, depth, walk);
    } catch {
      return unreadable;
    }
  }

  function scrubObject(value: object, depth: number, walk: Walk): unknown {
    walk.nodes += 1;
    if (walk.nodes > MAX_SCRUB_NODES) return truncated;
    if (value instanceof Date) return value;
    if (value instanceof URL) return text(value.href);
    if (ArrayBuffer.isView(value)) return `[binary, ${value.byteLength} bytes]`;
    if (value instanceof Error) return enter(value, depth, walk, () => error(value, depth + 1, walk, 0));
    if (Array.isArray(value))
      return enter(value, depth, walk, () => value.map((item: unknown) => scrub(item, depth + 1, walk)));
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      return enter(value, depth, walk, () => scrub(toJSON.call(value) as unknown, depth + 1, walk));
    }
    return enter(value, depth, walk, () => object(value, depth + 1, walk));
  }

  const newWalk = (): Walk => ({ nodes: 0, ancestors: new Set() });
  return {
    fields: (fields) => object(fields, 0, newWalk()),
    value: (value) => scrub(value, 0, newWalk()),
    text,
  };
}
