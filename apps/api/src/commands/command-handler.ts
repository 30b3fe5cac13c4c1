import type { CommandDefinition, CommandInput, CommandOutput } from '@gatehouse/commands';
import type { Principal, TenantPrincipal } from '../auth/principal';
import type { LongPollWait } from './long-poll/await-change';

/**
 * What every use case receives: who is calling (already authenticated, its kind, pool and scope checked) and the
 * parsed input. A tenant principal unless the command's declaration lets gateway tokens call it (`callers`).
 */
export interface UseCaseArgs<I, P extends Principal = TenantPrincipal> {
  readonly principal: P;
  readonly input: I;
  /**
   * Aborted when the client goes away before the answer is sent (REST): long work (a long-poll, a slow read)
   * stops there. The surfaces always pass one; a test calling a use case directly may leave it out.
   */
  readonly signal?: AbortSignal;
  /** Set for a long-poll (`?wait=` with `If-None-Match`) on a read that declares one: await it (awaitChange). */
  readonly wait?: LongPollWait;
  /**
   * Set for a conditional read (REST with `If-None-Match`): true when the client already holds this tag. A use
   * case that can name its version before building (TaggedRead) returns `TaggedRead.unchanged(tag)` then.
   */
  readonly clientHasTag?: (tag: string) => boolean;
}

/**
 * One use case per command. `execute` returns a value the command's output schema accepts, or (a read) a
 * TaggedRead carrying one.
 */
export interface UseCase<I, O> {
  execute(args: UseCaseArgs<I>): Promise<O>;
}

/** The use case of a given command, typed by its zod input and output. */
export type UseCaseFor<C extends CommandDefinition> = UseCase<CommandInput<C>, CommandOutput<C>>;

/**
 * The surfaces (REST, GraphQL, admin over MCP) call handlers without knowing their types: the runner has
 * validated `input` with the command's own schema before, and parses the result through its output schema after.
 */
export interface CommandHandler {
  execute(args: UseCaseArgs<never, never>): Promise<unknown>;
}

/** Command name → its use case. Every command in COMMANDS must have one (checked at registration). */
export type CommandHandlers = Readonly<Record<string, CommandHandler>>;
