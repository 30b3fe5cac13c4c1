import { GraphQLNonNull, GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfigMap } from 'graphql';
import { z } from 'zod';
import type { CommandDefinition } from '@gatehouse/commands';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import type { CommandHandler } from '../commands/command-handler';
import { runCommand, type RefusalObserver } from '../commands/command-runner';
import { GraphQLTypeFactory, pascalCase, unwrapNullable, type JsonSchema } from './json-schema-graphql-types';

/** What every resolver gets: the caller, resolved once per request (null: no credential). */
export interface CommandGraphQLContext {
  readonly principal: Principal | null;
  /** Set when the credential was refused (e.g. a revoked token): every field answers with that problem. */
  readonly authenticationFailure?: unknown;
  /** The HTTP reply (mercurius puts it in every context): a one-time secret is answered with no-store. */
  readonly reply?: { header(name: string, value: string): unknown };
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _marker, ...rest } = z.toJSONSchema(schema, { io }) as JsonSchema & { $schema?: string };
  return rest;
}

/**
 * GraphQL values → what the command's zod input accepts. GraphQL types are taken from the parsed side of the
 * schema (a query-string boolean such as `includeRevoked` is a Boolean here), so values whose wire form is a
 * string are turned back into one; an explicit null for a non-nullable optional field means "not given".
 */
export function graphqlArgsToInput(value: unknown, inputSchema: JsonSchema): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (typeof value !== 'object' || value === null) return input;
  for (const [key, raw] of Object.entries(value)) {
    const property = inputSchema.properties?.[key];
    const { schema, nullable } =
      property === undefined ? { schema: {}, nullable: true } : unwrapNullable(property);
    if (raw === null && !nullable) continue;
    input[key] =
      schema.type === 'string' && (typeof raw === 'boolean' || typeof raw === 'number') ? String(raw) : raw;
  }
  return input;
}

/**
 * The GraphQL schema of the command registry: one field per command, on Query or Mutation by its kind, named
 * by its `graphql.field`, with one `input: <Field>Input` argument (required when any input field is) and the
 * output type generated from its zod output. Resolvers take the same path as REST (runCommand).
 */
export function buildCommandSchema(
  bound: ReadonlyMap<CommandDefinition, CommandHandler>,
  // No pools by default: worker and gateway tokens are then refused (the schema-only specs never execute).
  workerPools: WorkerPools = {},
  onUndeclaredProblem?: (commandName: string, code: string) => void,
  onRefused?: RefusalObserver,
): GraphQLSchema {
  const types = new GraphQLTypeFactory();
  const query: GraphQLFieldConfigMap<unknown, CommandGraphQLContext> = {};
  const mutation: GraphQLFieldConfigMap<unknown, CommandGraphQLContext> = {};

  for (const [command, handler] of bound) {
    const field = command.graphql.field;
    const inputSchema = jsonSchema(command.input, 'input');
    const parsedInputSchema = jsonSchema(command.input, 'output');
    const hasInput = Object.keys(inputSchema.properties ?? {}).length > 0;
    const output = types.output(jsonSchema(command.output, 'output'), `${pascalCase(field)}Result`);

    const args: GraphQLFieldConfigMap<unknown, CommandGraphQLContext>[string]['args'] = {};
    if (hasInput) {
      const inputType = types.inputObject(
        inputSchema,
        `${pascalCase(field)}Input`,
        parsedInputSchema.properties,
      );
      args.input = {
        type: (inputSchema.required ?? []).length > 0 ? new GraphQLNonNull(inputType) : inputType,
      };
    }

    const target = command.kind === 'query' ? query : mutation;
    target[field] = {
      type: output,
      description: `${command.summary} (command \`${command.name}\`, scope \`${command.scope}\`)`,
      args,
      resolve: (_source, fieldArgs: { input?: unknown }, context) => {
        if (context.authenticationFailure !== undefined) throw context.authenticationFailure;
        if (command.revealsSecret) context.reply?.header('cache-control', 'no-store');
        return runCommand({
          command,
          handler,
          principal: context.principal,
          rawInput: graphqlArgsToInput(fieldArgs.input, inputSchema),
          workerPools,
          ...(onUndeclaredProblem !== undefined ? { onUndeclaredProblem } : {}),
          ...(onRefused !== undefined ? { onRefused } : {}),
        });
      },
    };
  }

  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    ...(Object.keys(mutation).length > 0
      ? { mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }) }
      : {}),
  });
}
