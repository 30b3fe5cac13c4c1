import { COMMANDS, type CommandDefinition } from '@gatehouse/commands';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pascalCase, unwrapNullable, type JsonSchema } from '../../graphql/json-schema-graphql-types';
import { carriesBody, pathParamsOf } from '../../admin-surfaces/rest/command-route-schema';

// Test clients that call a command the way an outside client would: over REST (method + path from the
// registry, path params substituted, the rest as query string or JSON body) or over GraphQL (a document built
// from the registry's field name and output schema). Both answer in one shape so a table of cases runs on both.

export type Surface = 'rest' | 'graphql';

export type CallResult =
  | {
      readonly ok: true;
      readonly status: number;
      readonly output: Record<string, unknown>;
      readonly headers: Record<string, unknown>;
    }
  | {
      readonly ok: false;
      readonly status: number;
      readonly code: string;
      readonly body: unknown;
      readonly headers: Record<string, unknown>;
    };

export function commandNamed(name: string): CommandDefinition {
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) throw new Error(`no command ${name}`);
  return command;
}

function selectionOf(schema: JsonSchema): string {
  const { schema: inner } = unwrapNullable(schema);
  if (inner.type === 'array') return selectionOf(inner.items ?? {});
  if (inner.type === 'object' && inner.properties !== undefined && Object.keys(inner.properties).length > 0) {
    const fields = Object.entries(inner.properties).map(([key, value]) => `${key}${selectionOf(value)}`);
    return ` { ${fields.join(' ')} }`;
  }
  return '';
}

export function graphqlDocumentOf(command: CommandDefinition): string {
  const field = command.graphql.field;
  const input = z.toJSONSchema(command.input, { io: 'input' }) as JsonSchema;
  const hasInput = Object.keys(input.properties ?? {}).length > 0;
  const required = (input.required ?? []).length > 0;
  const variables = hasInput ? `($input: ${pascalCase(field)}Input${required ? '!' : ''})` : '';
  const args = hasInput ? '(input: $input)' : '';
  const selection = selectionOf(z.toJSONSchema(command.output) as JsonSchema);
  return `${command.kind} Run${variables} { ${field}${args}${selection} }`;
}

function queryString(input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, String(value)]));
}

function authHeaders(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

export async function callRest(
  app: FastifyInstance,
  command: CommandDefinition,
  input: Record<string, unknown>,
  token: string | undefined,
): Promise<CallResult> {
  let url = command.http.path;
  const rest: Record<string, unknown> = { ...input };
  for (const param of pathParamsOf(command.http.path)) {
    url = url.replace(`:${param}`, encodeURIComponent(String(rest[param])));
    delete rest[param];
  }
  const response = await app.inject({
    method: command.http.method,
    url,
    headers: authHeaders(token),
    ...(carriesBody(command) ? { payload: rest } : { query: queryString(rest) }),
  });
  const body: unknown = response.body.length > 0 ? JSON.parse(response.body) : undefined;
  if (response.statusCode < 400) {
    return {
      ok: true,
      status: response.statusCode,
      output: body as Record<string, unknown>,
      headers: response.headers,
    };
  }
  return {
    ok: false,
    status: response.statusCode,
    code: (body as { code: string }).code,
    body,
    headers: response.headers,
  };
}

export async function callGraphQL(
  app: FastifyInstance,
  command: CommandDefinition,
  input: Record<string, unknown>,
  token: string | undefined,
): Promise<CallResult> {
  const hasInput = Object.keys(command.input.shape).length > 0;
  const response = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: authHeaders(token),
    payload: { query: graphqlDocumentOf(command), ...(hasInput ? { variables: { input } } : {}) },
  });
  const body = JSON.parse(response.body) as {
    data?: Record<string, unknown> | null;
    errors?: { extensions?: { code?: string; status?: number } }[];
  };
  const error = body.errors?.[0];
  if (error === undefined) {
    const output = body.data?.[command.graphql.field] as Record<string, unknown>;
    return { ok: true, status: response.statusCode, output, headers: response.headers };
  }
  return {
    ok: false,
    status: error.extensions?.status ?? response.statusCode,
    code: error.extensions?.code ?? 'missing_code',
    body,
    headers: response.headers,
  };
}

export function callCommand(
  surface: Surface,
  app: FastifyInstance,
  name: string,
  input: Record<string, unknown>,
  token: string | undefined,
): Promise<CallResult> {
  const command = commandNamed(name);
  return surface === 'rest' ? callRest(app, command, input, token) : callGraphQL(app, command, input, token);
}
