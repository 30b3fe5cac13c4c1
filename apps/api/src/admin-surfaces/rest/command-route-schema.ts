import { z } from 'zod';
import { longPollOf, problemsOf, successStatusOf, type CommandDefinition } from '@gatehouse/commands';

// The JSON schemas a command's route carries. They feed @fastify/swagger (OpenAPI at /docs) only: validation is
// zod's (command-runner), so the documented shape and the enforced shape come from the same declaration.

type JsonObjectSchema = {
  type?: unknown;
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
};

export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z][A-Za-z0-9]*)/g)].map((m) => m[1] as string);
}

export function carriesBody(command: CommandDefinition): boolean {
  const method = command.http.method;
  return method === 'POST' || method === 'PATCH' || method === 'PUT';
}

/** OpenAPI 3.0 flavoured JSON schema without the `$schema` marker (it is embedded in a larger document). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObjectSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'openapi-3.0',
  }) as JsonObjectSchema;
  return rest;
}

function pick(source: JsonObjectSchema, names: readonly string[], allRequired: boolean): JsonObjectSchema {
  const properties: Record<string, unknown> = {};
  for (const name of names) {
    const property = source.properties?.[name];
    if (property !== undefined) properties[name] = property;
  }
  const required = allRequired ? [...names] : (source.required ?? []).filter((name) => names.includes(name));
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

export interface CommandRouteSchema {
  summary: string;
  description: string;
  operationId: string;
  tags: string[];
  security: Record<string, string[]>[];
  params?: JsonObjectSchema;
  querystring?: JsonObjectSchema;
  body?: JsonObjectSchema;
  response: Record<string, unknown>;
}

/** The Fastify route schema of one command: path params, then query (GET/DELETE) or JSON body, and the answer. */
export function commandRouteSchema(command: CommandDefinition): CommandRouteSchema {
  const input = jsonSchemaOf(command.input, 'input');
  const params = pathParamsOf(command.http.path);
  const rest = Object.keys(input.properties ?? {}).filter((name) => !params.includes(name));
  const status = successStatusOf(command);
  const wait = longPollOf(command);

  const schema: CommandRouteSchema = {
    summary: command.summary,
    description:
      `Command \`${command.name}\`. Scope: \`${command.scope}\`. GraphQL: \`${command.graphql.field}\`. ` +
      `Problem codes: ${problemsOf(command).map((code) => `\`${code}\``).join(', ')}.` +
      (command.read !== undefined ? ' Answers an ETag; 304 to a matching If-None-Match.' : '') +
      (wait !== null ? ` Long-poll: \`?wait=\` up to ${wait} seconds with If-None-Match.` : ''),
    operationId: command.name,
    tags: [command.name.split('.')[0] as string],
    security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    response: {
      [status]:
        status === 204
          ? { description: 'Done', type: 'null' }
          : { description: 'Success', ...jsonSchemaOf(command.output, 'output') },
      ...(command.read !== undefined ? { 304: { description: 'Not modified', type: 'null' } } : {}),
    },
  };
  if (params.length > 0) schema.params = pick(input, params, true);
  if (carriesBody(command)) {
    if (rest.length > 0) schema.body = pick(input, rest, false);
  } else if (rest.length > 0 || wait !== null) {
    schema.querystring = pick(input, rest, false);
    if (wait !== null) {
      schema.querystring.properties = {
        ...schema.querystring.properties,
        wait: { type: 'integer', minimum: 0, maximum: wait, description: 'Long-poll: seconds to hold the answer' },
      };
    }
  }
  return schema;
}
