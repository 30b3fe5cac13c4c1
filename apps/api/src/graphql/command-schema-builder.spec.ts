import {
  COMMANDS,
  createWorkspace,
  getWorkspace,
  listTokens,
  listWorkspaces,
  whoAmI,
} from '@gatehouse/commands';
import { GraphQLNonNull, GraphQLObjectType, getNamedType, type GraphQLField } from 'graphql';
import { z } from 'zod';
import { buildCommandSchema, graphqlArgsToInput } from './command-schema-builder';
import type { JsonSchema } from './json-schema-graphql-types';

const noop = { execute: async () => ({}) };
const schema = buildCommandSchema(new Map(COMMANDS.map((command) => [command, noop])));

function fieldOf(name: string): GraphQLField<unknown, unknown> {
  const field = schema.getQueryType()?.getFields()[name] ?? schema.getMutationType()?.getFields()[name];
  if (field === undefined) throw new Error(`no field ${name}`);
  return field;
}

describe('GraphQL schema from the command registry', () => {
  it('has one field per command, on Query or Mutation by its kind', () => {
    const queries = Object.keys(schema.getQueryType()?.getFields() ?? {});
    const mutations = Object.keys(schema.getMutationType()?.getFields() ?? {});
    expect([...queries, ...mutations].sort()).toEqual(COMMANDS.map((c) => c.graphql.field).sort());
    for (const command of COMMANDS) {
      expect(command.kind === 'query' ? queries : mutations).toContain(command.graphql.field);
    }
  });

  it('takes one `input` argument, required when any input field is, absent when there is none', () => {
    expect(fieldOf(whoAmI.graphql.field).args).toHaveLength(0);
    const get = fieldOf(getWorkspace.graphql.field).args;
    expect(get.map((a) => a.name)).toEqual(['input']);
    expect(String(get[0]?.type)).toBe('WorkspaceInput!');
    expect(String(fieldOf(listWorkspaces.graphql.field).args[0]?.type)).toBe('WorkspacesInput');
    expect(String(fieldOf(createWorkspace.graphql.field).args[0]?.type)).toBe('CreateWorkspaceInput!');
  });

  it('reuses one named type per zod title across fields', () => {
    const single = fieldOf(getWorkspace.graphql.field).type;
    const created = fieldOf(createWorkspace.graphql.field).type;
    const page = getNamedType(fieldOf(listWorkspaces.graphql.field).type) as GraphQLObjectType;
    const item = getNamedType(page.getFields().items?.type as never);
    expect(single).toBeInstanceOf(GraphQLNonNull);
    expect(getNamedType(single)).toBe(getNamedType(created));
    expect(item).toBe(getNamedType(single));
    expect(getNamedType(single).name).toBe('Workspace');
  });

  it('types query-string booleans as Boolean and hands zod the wire form back', () => {
    const input = fieldOf(listTokens.graphql.field).args[0];
    const fields = (
      getNamedType(input?.type as never) as unknown as { getFields(): Record<string, { type: unknown }> }
    ).getFields();
    expect(String(fields.includeRevoked?.type)).toBe('Boolean');
    expect(String(fields.limit?.type)).toBe('Int');
    const wire = z.toJSONSchema(listTokens.input, { io: 'input' }) as JsonSchema;
    const converted = graphqlArgsToInput({ includeRevoked: true, limit: 5, cursor: null }, wire);
    expect(converted).toEqual({ includeRevoked: 'true', limit: 5 });
    expect(listTokens.input.parse(converted)).toEqual({ includeRevoked: true, limit: 5 });
  });
});
