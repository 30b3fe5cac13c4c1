import {
  pino,
  stdTimeFunctions,
  type DestinationStream,
  type LogFn,
  type Logger,
  type LoggerOptions,
} from 'pino';
import type { LogLevel } from '../config/config-fields.js';
import { createLogScrubber, type LogScrubber } from './log-scrubber.js';
import { createSecretScrubber, secretFragments } from './secret-values.js';

export type { Logger } from 'pino';

export type CreateLoggerOptions = {
  /** The app or component name, on every line as `name`. */
  name: string;
  level: LogLevel;
  /** Extra property names to redact: the app's secret config variables (`secretConfigKeys(schema)`). */
  secretKeys?: readonly string[];
  /**
   * The app's secret config values (`secretConfigValues(schema, config)`): scrubbed from every line wherever
   * they appear, e.g. inside a driver's error message.
   */
  secretValues?: readonly string[];
  /** Where lines go; stdout when absent. Tests pass a stream to read the output. */
  destination?: DestinationStream;
};

export const REDACTED = '[redacted]';

/**
 * The message and its format arguments, scrubbed like the fields. An error logged as the first argument (or
 * under `err` without a message) would give pino its raw message as the line's `msg`: it gets the scrubbed one.
 */
function scrubArguments(args: unknown[], scrubber: LogScrubber): unknown[] {
  const [first, ...rest] = args;
  const out: unknown[] = [];
  let fields: unknown = first;
  if (first instanceof Error) fields = { err: first };
  const err = (fields as { err?: unknown } | null)?.err;
  const hasMessage = typeof fields === 'object' && fields !== null ? typeof rest[0] === 'string' : true;
  if (typeof fields === 'object' && fields !== null) {
    out.push(fields);
    if (!hasMessage && err instanceof Error) out.push(scrubber.text(err.message));
  } else {
    out.push(typeof fields === 'string' ? scrubber.text(fields) : fields);
  }
  for (const arg of rest) out.push(typeof arg === 'string' ? scrubber.text(arg) : scrubber.value(arg));
  return out;
}

/**
 * JSON lines on stdout; the only logger our code uses. Every line goes through one linear scrub (fields, child
 * bindings, message and format arguments): sensitive names redacted at any depth and in any case, every string
 * scrubbed of URL credentials and query strings, bearer credentials, `name=value` secrets and token shapes,
 * errors serialized with their message, stack and causes scrubbed. The app's exact secret values are replaced
 * once more on the finished line.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const needles = [...new Set((options.secretValues ?? []).flatMap((value) => secretFragments(value)))];
  const scrubber = createLogScrubber({
    censor: REDACTED,
    secretKeys: options.secretKeys ?? [],
    needles,
  });
  const scrubLine = createSecretScrubber(options.secretValues ?? [], REDACTED);
  const settings: LoggerOptions = {
    name: options.name,
    level: options.level,
    base: { pid: process.pid },
    timestamp: stdTimeFunctions.isoTime,
    // The walk below serializes errors itself; pino's own serializer would turn its output back into `Object`.
    serializers: { err: passThrough, error: passThrough },
    formatters: {
      level: (label: string) => ({ level: label }),
      log: (fields) => scrubber.fields(fields),
    },
    hooks: {
      logMethod(args, method) {
        method.apply(this, scrubArguments(args, scrubber) as Parameters<LogFn>);
      },
      ...(scrubLine ? { streamWrite: scrubLine } : {}),
    },
  };
  const logger = options.destination ? pino(settings, options.destination) : pino(settings);
  // pino formats a child's bindings once, at creation, without `formatters.log` (and resets a custom bindings
  // formatter for children): scrub them on the way in. Children inherit this `child` through their prototype.
  const child = logger.child;
  logger.child = function scrubbedChild(this: Logger, bindings, childOptions) {
    return child.call(this, scrubber.fields(bindings), childOptions);
  } as Logger['child'];
  return logger;
}

const passThrough = (value: unknown): unknown => value;
