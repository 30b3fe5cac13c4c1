import type { Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's LoggerService shape over pino, so Nest's own messages (module init, route mapping, errors) are JSON
 * lines with the same redaction. Structural: this lib does not depend on Nest. Nest passes the context (the
 * class that logged) as the last string argument.
 */
export class NestLoggerAdapter {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const rest = [...params];
    const last = rest[rest.length - 1];
    const context = typeof last === 'string' ? (rest.pop() as string) : undefined;
    // Nest's `error(message, stack, context)`: a string left over after the context is the stack.
    const stack = level === 'error' && typeof rest[0] === 'string' ? rest[0] : undefined;
    const fields: Record<string, unknown> = {};
    if (context !== undefined) fields.context = context;
    if (message instanceof Error) {
      fields.err = message;
      this.logger[level](fields, message.message);
      return;
    }
    if (stack !== undefined) fields.stack = stack;
    if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, detail: message });
      return;
    }
    this.logger[level](fields, String(message));
  }
}
