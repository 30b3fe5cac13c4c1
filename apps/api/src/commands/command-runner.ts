import type { CommandDefinition } from '@gatehouse/commands';
import type { Principal, TenantPrincipal } from '../auth/principal';
import type { CommandHandler } from './command-handler';
import { ValidationProblemError, forbiddenScope, unauthenticated } from './command-problems';
import { isUniqueViolation, uniqueViolationProblem } from './unique-violation';
import { fieldErrorsOf } from './zod-field-errors';

export interface RunCommandOptions {
  readonly command: CommandDefinition;
  readonly handler: CommandHandler;
  /** Null when the request carried no credential at all. */
  readonly principal: Principal | null;
  /** What the surface collected (REST: path + query or body; GraphQL: the `input` argument), not yet trusted. */
  readonly rawInput: unknown;
}

/** The output of a use case did not match its command's declaration: a bug of ours, answered as a 500. */
export class CommandOutputMismatchError extends Error {
  constructor(commandName: string, paths: readonly string[]) {
    super(`the output of ${commandName} does not match its schema at: ${paths.join(', ') || '(root)'}`);
    this.name = 'CommandOutputMismatchError';
  }
}

/** Authentication first (401), then the scope (403), so an anonymous caller learns nothing from validation. */
export function authorize(command: CommandDefinition, principal: Principal | null): TenantPrincipal {
  if (principal === null) throw unauthenticated();
  // Admin commands act inside one tenant: a platform (gateway) credential never holds their scopes.
  if (principal.type !== 'tenant' || !principal.scopes.includes(command.scope))
    throw forbiddenScope(command.scope);
  return principal;
}

/**
 * The one path every surface takes into a use case: authenticate, check the scope, validate the input with the
 * command's strict schema, run the use case, and parse its result through the output schema (which strips any
 * undeclared field, so a column added to a row can never leak). Unique violations become 409 `conflict` here,
 * in one place.
 */
export async function runCommand(options: RunCommandOptions): Promise<unknown> {
  const { command, handler } = options;
  const principal = authorize(command, options.principal);

  const parsedInput = command.input.safeParse(options.rawInput);
  if (!parsedInput.success) throw new ValidationProblemError(fieldErrorsOf(parsedInput.error));

  let result: unknown;
  try {
    result = await handler.execute({ principal, input: parsedInput.data as never });
  } catch (error) {
    if (isUniqueViolation(error)) throw uniqueViolationProblem();
    throw error;
  }

  const parsedOutput = command.output.safeParse(result);
  if (!parsedOutput.success) {
    throw new CommandOutputMismatchError(
      command.name,
      parsedOutput.error.issues.map((issue) => issue.path.map(String).join('.')),
    );
  }
  return parsedOutput.data;
}
