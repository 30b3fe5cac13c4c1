import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  Kind,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
  type ValueNode,
} from 'graphql';

// GraphQL types from the JSON schemas zod emits for the command registry (z.toJSONSchema). Objects with a
// `title` (zod `.meta({ title })`) become named types shared by every field that returns them; a title seen
// twice with different shapes is a registry bug and stops the build. Enums stay String (zod validates them, and
// scope names such as `tenant:read` are not GraphQL names); records and unknowns are the JSONObject scalar.

type NullableOutput = GraphQLScalarType | GraphQLObjectType | GraphQLList<GraphQLOutputType>;
type NullableInput = GraphQLScalarType | GraphQLInputObjectType | GraphQLList<GraphQLInputType>;

export interface JsonSchema {
  type?: string | string[];
  title?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  format?: string;
}

function literalValue(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value)]));
    case Kind.LIST:
      return node.values.map(literalValue);
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return node.value;
    default:
      return null;
  }
}

/** Free-form JSON object (e.g. an audit event's `data`). */
export const GraphQLJSONObject = new GraphQLScalarType({
  name: 'JSONObject',
  description: 'A JSON object.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (node) => literalValue(node),
});

export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => (part[0] as string).toUpperCase() + part.slice(1))
    .join('');
}

/** Splits `X | null` (zod's nullable: `anyOf` with a null branch, or a `type` array with "null"). */
export function unwrapNullable(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const union = schema.anyOf ?? schema.oneOf;
  if (union !== undefined) {
    const rest = union.filter((branch) => branch.type !== 'null');
    if (rest.length === 1 && rest.length < union.length)
      return { schema: rest[0] as JsonSchema, nullable: true };
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = schema.type.filter((t) => t !== 'null');
    if (types.length === 1) return { schema: { ...schema, type: types[0] as string }, nullable: true };
  }
  return { schema, nullable: false };
}

function isOpenObject(schema: JsonSchema): boolean {
  return (
    schema.type === 'object' &&
    (schema.properties === undefined || Object.keys(schema.properties).length === 0)
  );
}

function scalarOf(schema: JsonSchema, where: string): GraphQLScalarType {
  // Enums and string constants stay String (scope names are not GraphQL names); a numeric or boolean constant
  // (a document's `v: 1`) keeps its JSON type, so the answer parses back through the declaration.
  if (schema.enum !== undefined || (schema.const !== undefined && typeof schema.const === 'string'))
    return GraphQLString;
  switch (schema.type) {
    case 'string':
      return schema.format === 'uuid' ? GraphQLID : GraphQLString;
    case 'integer':
      return GraphQLInt;
    case 'number':
      return GraphQLFloat;
    case 'boolean':
      return GraphQLBoolean;
    case undefined:
      if (schema.anyOf === undefined && schema.oneOf === undefined) return GraphQLJSONObject;
      break;
    default:
      break;
  }
  throw new Error(`no GraphQL type for the JSON schema at ${where}: ${JSON.stringify(schema).slice(0, 200)}`);
}

export class GraphQLTypeFactory {
  private readonly objects = new Map<string, { type: GraphQLObjectType; shape: string }>();
  private readonly inputs = new Map<string, { type: GraphQLInputObjectType; shape: string }>();

  /** A field's output type; `required` false or a nullable schema makes it nullable. */
  output(schema: JsonSchema, nameHint: string, required = true): GraphQLOutputType {
    const { schema: inner, nullable } = unwrapNullable(schema);
    const type = this.nullableOutput(inner, nameHint);
    return nullable || !required ? type : new GraphQLNonNull(type);
  }

  input(schema: JsonSchema, nameHint: string, required: boolean): GraphQLInputType {
    const { schema: inner, nullable } = unwrapNullable(schema);
    const type = this.nullableInput(inner, nameHint);
    return nullable || !required ? type : new GraphQLNonNull(type);
  }

  /** The named input object for a command's `input` argument; `overrides` replace single property schemas. */
  inputObject(
    schema: JsonSchema,
    name: string,
    overrides: Record<string, JsonSchema> = {},
  ): GraphQLInputObjectType {
    const properties = { ...schema.properties };
    for (const [key, value] of Object.entries(overrides)) if (key in properties) properties[key] = value;
    return this.namedInput({ ...schema, properties }, name);
  }

  private nullableOutput(schema: JsonSchema, nameHint: string): NullableOutput {
    if (schema.type === 'array') {
      return new GraphQLList(this.output(schema.items ?? {}, `${nameHint}Item`));
    }
    if (schema.type === 'object' && !isOpenObject(schema))
      return this.namedObject(schema, schema.title ?? nameHint);
    if (isOpenObject(schema)) return GraphQLJSONObject;
    return scalarOf(schema, nameHint);
  }

  private nullableInput(schema: JsonSchema, nameHint: string): NullableInput {
    if (schema.type === 'array') {
      return new GraphQLList(this.input(schema.items ?? {}, `${nameHint}Item`, true));
    }
    if (schema.type === 'object' && !isOpenObject(schema)) {
      return this.namedInput(schema, schema.title !== undefined ? `${schema.title}Input` : nameHint);
    }
    if (isOpenObject(schema)) return GraphQLJSONObject;
    return scalarOf(schema, nameHint);
  }

  private namedObject(schema: JsonSchema, name: string): GraphQLObjectType {
    const shape = JSON.stringify(schema);
    const existing = this.objects.get(name);
    if (existing !== undefined) {
      if (existing.shape !== shape)
        throw new Error(`GraphQL type ${name} is declared with two different shapes`);
      return existing.type;
    }
    const required = new Set(schema.required ?? []);
    const type: GraphQLObjectType = new GraphQLObjectType({
      name,
      ...(schema.description !== undefined ? { description: schema.description } : {}),
      fields: () => {
        const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
        for (const [key, property] of Object.entries(schema.properties ?? {})) {
          fields[key] = { type: this.output(property, `${name}${pascalCase(key)}`, required.has(key)) };
        }
        return fields;
      },
    });
    this.objects.set(name, { type, shape });
    return type;
  }

  private namedInput(schema: JsonSchema, name: string): GraphQLInputObjectType {
    const shape = JSON.stringify(schema);
    const existing = this.inputs.get(name);
    if (existing !== undefined) {
      if (existing.shape !== shape)
        throw new Error(`GraphQL input ${name} is declared with two different shapes`);
      return existing.type;
    }
    const required = new Set(schema.required ?? []);
    const type: GraphQLInputObjectType = new GraphQLInputObjectType({
      name,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        for (const [key, property] of Object.entries(schema.properties ?? {})) {
          fields[key] = { type: this.input(property, `${name}${pascalCase(key)}`, required.has(key)) };
        }
        return fields;
      },
    });
    this.inputs.set(name, { type, shape });
    return type;
  }
}
