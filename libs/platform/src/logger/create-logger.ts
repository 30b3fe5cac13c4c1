import {
  pino,
  stdSerializers,
  stdTimeFunctions,
  type DestinationStream,
  type Logger,
  type LoggerOptions,
} from 'pino';
import type { LogLevel } from '../config/config-fields.js';
import { redactionPaths } from './redaction-paths.js';
import { createSecretScrubber } from './secret-values.js';

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

/** JSON lines on stdout with redaction of every sensitive name; the only logger our code uses. */
export function createLogger(options: CreateLoggerOptions): Logger {
  const scrub = createSecretScrubber(options.secretValues ?? [], REDACTED);
  const settings: LoggerOptions = {
    name: options.name,
    level: options.level,
    base: { pid: process.pid },
    timestamp: stdTimeFunctions.isoTime,
    redact: { paths: redactionPaths(options.secretKeys), censor: REDACTED },
    serializers: { err: stdSerializers.err, error: stdSerializers.err },
    formatters: { level: (label: string) => ({ level: label }) },
    ...(scrub ? { hooks: { streamWrite: scrub } } : {}),
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
