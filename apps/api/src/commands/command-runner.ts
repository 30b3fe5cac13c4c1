import { callersOf, problemsOf, type CommandDefinition } from '@gatehouse/commands';
import { ProblemError } from '@gatehouse/platform';
import type { Principal } from '../auth/principal';
import { isPoolOpenToTenant, type WorkerPools } from '../auth/pool-config';
import type { CommandHandler } from './command-handler';
import type { LongPollWait } from './long-poll/await-change';
import { TaggedRead, type CommandResult } from './long-poll/tagged-read';
import {
  ValidationProblemError,
  forbiddenCaller,
  forbiddenScope,
  poolNotOpen,
  unauthenticated,
} from '../shared/command-problems';
import { isUniqueViolation, uniqueViolationProblem } from '../shared/unique-violation';
import { fieldErrorsOf } from '../shared/zod-field-errors';

export interface RunCommandOptions {
  readonly command: CommandDefinition;
  readonly handler: CommandHandler;
  /** Null when the request carried no credential at all. */
  readonly principal: Principal | null;
  /** What the surface collected (REST: path + query or body; GraphQL: the `input` argument), not yet trusted. */
  readonly rawInput: unknown;
  /** The operator's current WORKER_POOLS: a worker or gateway token's pool is checked against it on every call. */
  readonly workerPools: WorkerPools;
  /** Aborted when the client goes away; a signal that never aborts when absent. */
  readonly signal?: AbortSignal;
  /**
   * A long-poll: `isUnchanged` sees the parsed output (what the client's ETag was computed from). Only for
   * commands that declare long-poll; ignored otherwise.
   */
  readonly wait?: LongPollWait;
  /** A conditional read's If-None-Match as a test (REST): handed to the use case as `clientHasTag`. */
  readonly clientHasTag?: (tag: string) => boolean;
  /**
   * Told when a use case answers a problem code its declaration does not list (a bug of ours: the list is what
   * clients rely on). The problem is still answered as it is.
   */
  readonly onUndeclaredProblem?: (commandName: string, code: string) => void;
  /** Told of every typed refusal (4xx) of an authenticated caller, awaited before it is answered. */
  readonly onRefused?: RefusalObserver;
}

/**
 * A typed refusal (4xx problem) the runner answered to an authenticated caller: by its own checks (kind, pool,
 * scope, input, a unique violation it mapped to 409) or by the use case. Observers must not throw.
 */
export interface CommandRefusal {
  readonly command: CommandDefinition;
  readonly principal: Principal;
  readonly problem: ProblemError;
  /** True when the use case itself answered the problem (it ran and may have recorded the refusal itself). */
  readonly byUseCase: boolean;
}

export type RefusalObserver = (refusal: CommandRefusal) => Promise<void>;

const NEVER_ABORTED = new AbortController().signal;

/** The output of a use case did not match its command's declaration: a bug of ours, answered as a 500. */
export class CommandOutputMismatchError extends Error {
  constructor(commandName: string, paths: readonly string[]) {
    super(`the output of ${commandName} does not match its schema at: ${paths.join(', ') || '(root)'}`);
    this.name = 'CommandOutputMismatchError';
  }
}

/**
 * Authentication first (401), then the kind of credential the declaration accepts (403 `forbidden_caller`), the
 * pool of a worker or gateway token against the operator's current WORKER_POOLS (403 `pool_not_open`: a pool
 * removed or closed to the tenant since minting refuses its tokens at once), then the scope (403), so an
 * anonymous caller learns nothing from validation.
 */
export function authorize(
  command: CommandDefinition,
  principal: Principal | null,
  workerPools: WorkerPools,
): Principal {
  if (principal === null) throw unauthenticated();
  if (!callersOf(command).includes(principal.via)) throw forbiddenCaller(principal.via);
  if (!poolStillOpen(principal, workerPools)) throw poolNotOpen();
  if (!principal.scopes.includes(command.scope)) throw forbiddenScope(command.scope);
  return principal;
}

function poolStillOpen(principal: Principal, workerPools: WorkerPools): boolean {
  if (principal.type === 'platform')
    return principal.pool === undefined || Object.hasOwn(workerPools, principal.pool);
  if (principal.via !== 'worker') return true;
  return principal.pool !== null && isPoolOpenToTenant(workerPools, principal.pool, principal.tenantSlug);
}

/**
 * The one path every surface takes into a use case: authenticate, check the scope, validate the input with the
 * command's strict schema, run the use case, and parse its result through the output schema (which strips any
 * undeclared field, so a column added to a row can never leak). Unique violations become 409 `conflict` here,
 * in one place.
 */
export async function runCommand(options: RunCommandOptions): Promise<unknown> {
  return (await runCommandForResult(options)).output;
}

/**
 * runCommand with the use case's own entity tag, when it gave one (a TaggedRead): the REST surface answers 304
 * from it without the output being built, parsed or hashed.
 */
export async function runCommandForResult(options: RunCommandOptions): Promise<CommandResult> {
  const refusal = { byUseCase: false };
  try {
    return await checkedRun(options, refusal);
  } catch (error) {
    if (
      options.onRefused !== undefined &&
      options.principal !== null &&
      error instanceof ProblemError &&
      error.status >= 400 &&
      error.status < 500
    )
      await options.onRefused({
        command: options.command,
        principal: options.principal,
        problem: error,
        byUseCase: refusal.byUseCase,
      });
    throw error;
  }
}

async function checkedRun(
  options: RunCommandOptions,
  refusal: { byUseCase: boolean },
): Promise<CommandResult> {
  const { command, handler } = options;
  const principal = authorize(command, options.principal, options.workerPools);

  const parsedInput = command.input.safeParse(options.rawInput);
  if (!parsedInput.success) throw new ValidationProblemError(fieldErrorsOf(parsedInput.error));

  const wait = options.wait !== undefined && command.read?.longPoll !== undefined ? options.wait : undefined;
  let result: unknown;
  try {
    result = await handler.execute({
      principal: principal as never,
      input: parsedInput.data as never,
      signal: options.signal ?? NEVER_ABORTED,
      ...(wait !== undefined ? { wait: parsedWait(command, wait) } : {}),
      ...(options.clientHasTag !== undefined && command.read !== undefined
        ? { clientHasTag: options.clientHasTag }
        : {}),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw uniqueViolationProblem();
    refusal.byUseCase = true;
    // A declaration that lists its codes is held to them (one without a list yet gets the surfaces' only).
    if (
      error instanceof ProblemError &&
      command.problems !== undefined &&
      !problemsOf(command).includes(error.code)
    )
      options.onUndeclaredProblem?.(command.name, error.code);
    throw error;
  }

  if (result instanceof TaggedRead) {
    if (command.read === undefined)
      throw new CommandOutputMismatchError(command.name, ['(a tagged read of no read)']);
    return { output: result.built ? parseOutput(command, result.output) : undefined, tag: result.tag };
  }
  return { output: parseOutput(command, result), tag: null };
}

function parseOutput(command: CommandDefinition, result: unknown): unknown {
  const parsedOutput = command.output.safeParse(result);
  if (!parsedOutput.success) {
    throw new CommandOutputMismatchError(
      command.name,
      parsedOutput.error.issues.map((issue) => issue.path.map(String).join('.')),
    );
  }
  return parsedOutput.data;
}

/** The use case compares what it returns; the client's ETag was computed from the parsed output. */
function parsedWait(command: CommandDefinition, wait: LongPollWait): LongPollWait {
  return {
    timeoutMs: wait.timeoutMs,
    clientHasTag: wait.clientHasTag,
    isUnchanged: (result) => {
      if (result instanceof TaggedRead) return wait.clientHasTag(result.tag);
      const parsed = command.output.safeParse(result);
      return parsed.success && wait.isUnchanged(parsed.data);
    },
  };
}
