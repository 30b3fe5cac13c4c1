import type { Logger } from 'pino';
import type { z } from 'zod';
import { loadConfigOrExit, type ConfigSchema } from '../config/parse-config.js';
import { BootRefusedError } from '../errors/boot-refused-error.js';
import { installGracefulShutdown } from '../lifecycle/graceful-shutdown.js';

/** What main needs of a built app: listen on an address, close on shutdown. */
export interface ListeningService {
  listen(address: { host: string; port: number }): Promise<unknown>;
  close(): Promise<unknown>;
}

export interface RunServiceOptions<S extends ConfigSchema> {
  /** `api`, `gateway`, `worker`: the first word of every line main writes itself. */
  readonly name: string;
  readonly schema: S;
  readonly createLogger: (config: z.output<S>) => Logger;
  readonly createApp: (config: z.output<S>, logger: Logger) => Promise<ListeningService>;
  /** Where to listen, from the config. */
  readonly address: (config: z.output<S>) => { host: string; port: number };
  /** Fields of the `… listening` line besides the address (ids and origins only). */
  readonly listeningFields?: (config: z.output<S>) => Record<string, unknown>;
}

/**
 * Every app's main: the environment parsed once with zod (a bad variable stops the process with one line),
 * the logger, the app, SIGINT/SIGTERM handled with the config's SHUTDOWN_GRACE_MS, then listening. A
 * BootRefusedError is one line on stderr and exit 1; any other failure before listening is one line with the
 * error's name and message.
 */
export function runService<S extends ConfigSchema>(
  options: RunServiceOptions<S> & (z.output<S> extends { SHUTDOWN_GRACE_MS: number } ? unknown : never),
): void {
  const start = async (): Promise<void> => {
    const config = loadConfigOrExit(options.schema, process.env);
    const logger = options.createLogger(config);
    let app: ListeningService;
    try {
      app = await options.createApp(config, logger);
    } catch (error) {
      if (error instanceof BootRefusedError) {
        process.stderr.write(`${error.message}\n`);
        process.exit(1);
      }
      throw error;
    }
    const { SHUTDOWN_GRACE_MS: graceMs } = config as { SHUTDOWN_GRACE_MS: number };
    // Nest's own enableShutdownHooks() is not used: it re-raises the signal after closing, which would defeat
    // the grace timer. close() runs the same lifecycle hooks (drain HTTP, then close the pools).
    installGracefulShutdown({
      logger,
      graceMs,
      shutdown: async () => {
        await app.close();
      },
    });
    const address = options.address(config);
    await app.listen(address);
    logger.info({ ...address, ...options.listeningFields?.(config) }, `${options.name} listening`);
  };
  start().catch((error: unknown) => {
    // Before the app is up there may be no logger: one line on stderr, the error's name and message only.
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
    process.stderr.write(`${options.name} failed to start: ${reason.replace(/\s+/g, ' ')}\n`);
    process.exit(1);
  });
}
