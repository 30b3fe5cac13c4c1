// The slice of a pino logger this lib needs. Declared structurally so any pino `Logger` (the platform's)
// fits without this lib depending on how the platform builds its logger. Only ids and names are ever passed:
// never payloads, never connection URLs (they may carry a password).
export interface CoordinationLogger {
  info(bindings: Record<string, unknown>, message: string): void;
  warn(bindings: Record<string, unknown>, message: string): void;
  error(bindings: Record<string, unknown>, message: string): void;
}

// Used when the caller gives no logger: coordination must never write to the console on its own.
export const silentCoordinationLogger: CoordinationLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
