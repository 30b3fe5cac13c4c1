import type { ProblemCode } from '@gatehouse/contracts';
import type { z } from 'zod';
import type { Scope } from './scopes';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may call a command, by credential: a dashboard session, or a bearer token of a kind. `gateway` tokens are
 * platform principals (no tenant); worker and gateway tokens carry their pool, re-checked on every call.
 */
export const CALLER_KINDS = Object.freeze(['session', 'user', 'agent', 'worker', 'gateway'] as const);
export type CallerKind = (typeof CALLER_KINDS)[number];

/** Tenant credentials: what an admin command accepts unless its declaration says otherwise (scopes still apply). */
export const TENANT_CALLERS: readonly CallerKind[] = Object.freeze(['session', 'user', 'agent', 'worker']);

/**
 * How a command is offered as an admin-over-MCP tool: the MCP tool annotations, from the declaration. A command
 * without an offer is not a tool at all (fail closed), and some never may be (`mcpWithheldReason`).
 */
export interface McpOffer {
  /** `readOnlyHint`: it changes nothing (every query, no mutation). */
  readonly readOnly: boolean;
  /** `destructiveHint`: it may delete or overwrite what exists (false for queries). */
  readonly destructive: boolean;
  /** `idempotentHint`: calling it again with the same input changes nothing more. */
  readonly idempotent: boolean;
}

/** Which surfaces serve a command. REST and GraphQL unless switched off; admin MCP only with an offer. */
export interface CommandSurfaces {
  readonly rest?: boolean;
  readonly graphql?: boolean;
  readonly mcp?: McpOffer;
}

/** The longest `?wait=` any read may declare (seconds): a held request costs a connection and a subscription. */
export const MAX_LONG_POLL_SECONDS = 60;

/**
 * What a GET read answers beyond its output: an `ETag` computed from the output (so 304 to a matching
 * `If-None-Match`), and optionally long-poll (`?wait=` seconds, answered early when the output changes).
 */
export interface CommandRead {
  readonly etag: true;
  /** Bounded by MAX_LONG_POLL_SECONDS. The use case receives the wait and awaits its change notifier. */
  readonly longPoll?: { readonly maxWaitSeconds: number };
}

/**
 * One admin command, declared once. REST (`http`), GraphQL (`graphql`) and admin-over-MCP are generated from
 * this declaration, so the surfaces cannot drift. The use case that executes it is bound by `name` in the API.
 *
 * - `input` is a strict zod object: unknown fields are refused. For REST, path parameters (`:workspaceId`) and
 *   the query string (GET/DELETE) or JSON body (POST/PATCH/PUT) are merged into it.
 * - `output` describes the success payload; responses are parsed through it, so nothing undeclared (a secret
 *   column, say) can leak.
 */
export interface CommandDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly summary: string;
  readonly scope: Scope;
  readonly kind: 'query' | 'mutation';
  readonly input: I;
  readonly output: O;
  /**
   * `successStatus` is the one place a command's success status is said (200 when absent): REST answers it and
   * OpenAPI documents it (`successStatusOf`).
   */
  readonly http: { readonly method: HttpMethod; readonly path: string; readonly successStatus?: 200 | 201 | 204 };
  readonly graphql: { readonly field: string };
  /** REST and GraphQL by default; admin MCP only when offered (see McpOffer). */
  readonly surfaces?: CommandSurfaces;
  /** ETag/304 and long-poll, for GET queries only. */
  readonly read?: CommandRead;
  /**
   * The problem codes this command itself may answer, beyond the ones every command may (SURFACE_PROBLEMS, and
   * `conflict` for mutations): `problemsOf` gives the whole stable list.
   */
  readonly problems?: readonly ProblemCode[];
  /** Responses carrying a one-time secret are sent with `Cache-Control: no-store`. */
  readonly revealsSecret?: boolean;
  /** Which credentials may call it; TENANT_CALLERS when absent. A gateway caller must be listed explicitly. */
  readonly callers?: readonly CallerKind[];
}

export type CommandInput<C> = C extends CommandDefinition<infer I, z.ZodType> ? z.infer<I> : never;
export type CommandOutput<C> = C extends CommandDefinition<z.ZodObject, infer O> ? z.infer<O> : never;

/** The credentials a command accepts (its declaration's `callers`, or TENANT_CALLERS). */
export function callersOf(command: Pick<CommandDefinition, 'callers'>): readonly CallerKind[] {
  return command.callers ?? TENANT_CALLERS;
}

/** The status REST answers a success with. */
export function successStatusOf(command: Pick<CommandDefinition, 'http'>): 200 | 201 | 204 {
  return command.http.successStatus ?? 200;
}

/**
 * What every command may answer whatever it does, from the surfaces and the runner: the credential, its kind,
 * pool and scope, the CSRF check, the request's shape and characters, our own faults, and Postgres momentarily
 * out of reach (503 with Retry-After).
 */
export const SURFACE_PROBLEMS: readonly ProblemCode[] = Object.freeze([
  'bad_request',
  'malformed_json',
  'duplicate_key',
  'invalid_characters',
  'payload_too_large',
  'unsupported_media_type',
  'validation_failed',
  'unauthenticated',
  'csrf_failed',
  'forbidden_caller',
  'pool_not_open',
  'forbidden_scope',
  'internal',
  'dependency_unavailable',
]);

/** Every problem code a command may answer: the surfaces', `conflict` for mutations (unique keys), its own. */
export function problemsOf(command: Pick<CommandDefinition, 'kind' | 'problems'>): readonly ProblemCode[] {
  const all = new Set<ProblemCode>(SURFACE_PROBLEMS);
  if (command.kind === 'mutation') all.add('conflict');
  for (const code of command.problems ?? []) all.add(code);
  return [...all].sort();
}

/** Why a command is never offered over admin MCP, whatever its declaration says. */
export type McpWithheldReason = 'reveals_secret' | 'decides' | 'never_over_mcp';

/**
 * Commands an agent must never reach over MCP (docs/architecture/admin-surfaces.md): deciding and revoking
 * approvals (an agent must not approve its own tools), the tenant's HostPolicy, tokens and invitations, by
 * their name's first segment. Upstream OAuth sign-in and sign-out (`oauth.`) are commands for people only:
 * never offered either.
 */
export const NEVER_OVER_MCP_PREFIXES: readonly string[] = Object.freeze(['hostPolicy.', 'tokens.', 'invitations.', 'oauth.']);

export function mcpWithheldReason(
  command: Pick<CommandDefinition, 'name' | 'scope' | 'revealsSecret'>,
): McpWithheldReason | null {
  if (command.revealsSecret === true) return 'reveals_secret';
  if (command.scope === 'approvals:decide') return 'decides';
  if (NEVER_OVER_MCP_PREFIXES.some((prefix) => command.name.startsWith(prefix))) return 'never_over_mcp';
  return null;
}

export interface ResolvedSurfaces {
  readonly rest: boolean;
  readonly graphql: boolean;
  /** The tool's annotations, or null: not offered (not declared, or withheld). */
  readonly mcp: McpOffer | null;
}

/** Which surfaces serve a command, defaults applied and the MCP withholding rules enforced. */
export function surfacesOf(command: CommandDefinition): ResolvedSurfaces {
  const declared = command.surfaces ?? {};
  const mcp = declared.mcp !== undefined && mcpWithheldReason(command) === null ? declared.mcp : null;
  return { rest: declared.rest ?? true, graphql: declared.graphql ?? true, mcp };
}

/** The long-poll bound of a read (seconds), or null when it takes no `?wait=`. */
export function longPollOf(command: Pick<CommandDefinition, 'read'>): number | null {
  return command.read?.longPoll?.maxWaitSeconds ?? null;
}

/** A declaration that contradicts itself is a bug of ours: refused when the module loads, never at a request. */
export class CommandDeclarationError extends Error {
  constructor(name: string, fault: string) {
    super(`command ${name}: ${fault}`);
    this.name = 'CommandDeclarationError';
  }
}

function declarationFault(definition: CommandDefinition): string | null {
  const offer = definition.surfaces?.mcp;
  if (offer !== undefined) {
    const withheld = mcpWithheldReason(definition);
    if (withheld !== null) return `offered over MCP, which it may never be (${withheld})`;
    if (offer.readOnly !== (definition.kind === 'query')) return 'its MCP readOnly hint contradicts its kind';
    if (offer.readOnly && offer.destructive) return 'a read-only tool cannot be destructive';
  }
  const read = definition.read;
  if (read !== undefined) {
    if (definition.kind !== 'query' || definition.http.method !== 'GET') return 'ETag and long-poll are for GET queries';
    const wait = read.longPoll?.maxWaitSeconds;
    if (wait !== undefined && !(Number.isInteger(wait) && wait >= 1 && wait <= MAX_LONG_POLL_SECONDS))
      return `long-poll must be 1-${MAX_LONG_POLL_SECONDS} whole seconds`;
    if ('wait' in definition.input.shape) return 'an input field named wait would clash with ?wait=';
  }
  return null;
}

export function defineCommand<I extends z.ZodObject, O extends z.ZodType>(
  definition: CommandDefinition<I, O>,
): CommandDefinition<I, O> {
  const fault = declarationFault(definition as unknown as CommandDefinition);
  if (fault !== null) throw new CommandDeclarationError(definition.name, fault);
  return Object.freeze(definition);
}
