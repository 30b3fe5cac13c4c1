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
  readonly http: { readonly method: HttpMethod; readonly path: string; readonly successStatus?: 200 | 201 | 204 };
  readonly graphql: { readonly field: string };
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

export function defineCommand<I extends z.ZodObject, O extends z.ZodType>(
  definition: CommandDefinition<I, O>,
): CommandDefinition<I, O> {
  return Object.freeze(definition);
}
