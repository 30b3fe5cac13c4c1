import { COMMANDS } from '@gatehouse/commands';
import type { CommandHandler, CommandHandlers } from '../commands/command-handler';
import type { AuditCheckpointLogger } from './audit-checkpoint-logger';

const QUERY_NAMES = new Set(
  COMMANDS.filter((command) => command.kind === 'query').map((command) => command.name),
);

/**
 * Wraps every mutation's handler so the audit links its transaction appended are logged as `audit.checkpoint`
 * once the use case has resolved (its transaction committed). Queries append nothing, so they stay unwrapped and
 * the read path pays for no async context. One line of wiring where the handlers are built:
 * `withAuditCheckpoints(createCommandHandlers(deps), new AuditCheckpointLogger(logger))`.
 */
export function withAuditCheckpoints(
  handlers: CommandHandlers,
  checkpoints: AuditCheckpointLogger,
): CommandHandlers {
  const wrapped: Record<string, CommandHandler> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    wrapped[name] = QUERY_NAMES.has(name)
      ? handler
      : { execute: (args) => checkpoints.run(() => handler.execute(args)) };
  }
  return Object.freeze(wrapped);
}
