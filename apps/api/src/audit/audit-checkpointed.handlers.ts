import type { CommandHandler, CommandHandlers } from '../commands/command-handler';
import type { AuditCheckpointLogger } from './audit-checkpoint.logger';

/**
 * Wraps every command handler so the audit links its transaction appended are logged as `audit.checkpoint` once
 * the use case has resolved (its transaction committed). One line of wiring where the handlers are built:
 * `withAuditCheckpoints(createCommandHandlers(deps), new AuditCheckpointLogger(logger))`.
 */
export function withAuditCheckpoints(
  handlers: CommandHandlers,
  checkpoints: AuditCheckpointLogger,
): CommandHandlers {
  const wrapped: Record<string, CommandHandler> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    wrapped[name] = { execute: (args) => checkpoints.run(() => handler.execute(args)) };
  }
  return Object.freeze(wrapped);
}
