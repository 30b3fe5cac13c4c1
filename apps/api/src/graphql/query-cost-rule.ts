import type { ProblemCode } from '@gatehouse/contracts';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import {
  GraphQLError,
  getIntrospectionQuery,
  getNamedType,
  isLeafType,
  parse,
  isInterfaceType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  isEnumType,
  type ASTVisitor,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import {
  createComplexityRule,
  getComplexity,
  type ComplexityEstimator,
  type ComplexityEstimatorArgs,
} from 'graphql-query-complexity';

// Response amplification: one small query can ask for a large answer by repeating fields under aliases, by
// spreading fragments many times, and by nesting lists (each list multiplies everything selected under it).
// Three bounds, all checked while validating, before anything executes:
// - aliases per operation (fragments counted where they are spread): @escape.tech/graphql-armor-max-aliases;
// - selections per operation, fragments expanded at every spread (graphql-query-complexity's node count);
// - the estimated size of the answer (graphql-query-complexity with the estimator below): every selected field
//   counts 1, times the bound of every list of objects above it (the lists whose items repeat the selection).
//   A list of ours counts as the largest page (200 items); a list of scalars is one value;
//   an introspection list counts as the largest such list this schema has (its number of types, the most
//   fields of one type, ...), scaled (fanOutEstimator) so that the standard introspection query stays
//   answerable as the schema grows.
// Variables are taken into account (`@include(if: $x)`, arguments), so the rules are built per request
// (mercurius runs validation on every request for that: its query cache is off).

export const MAX_ALIASES = 30;
export const MAX_SELECTIONS = 2_000;
/** Estimated answer size: fields × the bounds of the lists above them. */
export const MAX_QUERY_COST = 250_000;
/** What one of our lists counts for: the largest page a paginated command answers (`limit` ≤ 200). */
export const LIST_BOUND = 200;

export const TOO_MANY_ALIASES = 'too_many_aliases' satisfies ProblemCode;
export const TOO_MANY_SELECTIONS = 'too_many_selections' satisfies ProblemCode;
export const QUERY_TOO_COSTLY = 'query_too_costly' satisfies ProblemCode;

type IntrospectionBounds = Readonly<Record<string, number>>;

/** `Type.field` of every introspection list → the largest such list in `schema`. */
function introspectionBoundsOf(schema: GraphQLSchema): IntrospectionBounds {
  const types = Object.values(schema.getTypeMap());
  let fields = 1;
  let args = 1;
  let inputFields = 1;
  let enumValues = 1;
  let interfaces = 1;
  let possibleTypes = 1;
  for (const type of types) {
    if (isObjectType(type) || isInterfaceType(type)) {
      const own = Object.values(type.getFields());
      fields = Math.max(fields, own.length);
      for (const field of own) args = Math.max(args, field.args.length);
      interfaces = Math.max(interfaces, type.getInterfaces().length);
    }
    if (isInterfaceType(type) || isUnionType(type))
      possibleTypes = Math.max(possibleTypes, schema.getPossibleTypes(type).length);
    if (isInputObjectType(type)) inputFields = Math.max(inputFields, Object.keys(type.getFields()).length);
    if (isEnumType(type)) enumValues = Math.max(enumValues, type.getValues().length);
  }
  const directives = schema.getDirectives();
  for (const directive of directives) args = Math.max(args, directive.args.length);
  return {
    '__Schema.types': types.length,
    '__Schema.directives': directives.length,
    '__Type.fields': fields,
    '__Type.interfaces': interfaces,
    '__Type.possibleTypes': possibleTypes,
    '__Type.enumValues': enumValues,
    '__Type.inputFields': inputFields,
    '__Field.args': args,
    '__Directive.args': args,
  };
}

/** The product of the bounds of every list level of `type` (1 for a field that is no list). */
function fanOutOf(type: GraphQLOutputType, bound: number): number {
  let fanOut = 1;
  let current: GraphQLOutputType = type;
  for (;;) {
    if (isNonNullType(current)) current = current.ofType;
    else if (isListType(current)) {
      fanOut *= bound;
      current = current.ofType as GraphQLOutputType;
    } else return fanOut;
  }
}

function rawEstimator(introspection: IntrospectionBounds): (args: ComplexityEstimatorArgs) => number {
  return ({ type, field, childComplexity }: ComplexityEstimatorArgs): number => {
    const fieldType = (field as GraphQLField<unknown, unknown>).type;
    // A list of scalars is one value of the answer: what it holds is data, which no query repeats.
    if (isLeafType(getNamedType(fieldType))) return 1;
    const bound = type.name.startsWith('__')
      ? (introspection[`${type.name}.${field.name}`] ?? LIST_BOUND)
      : LIST_BOUND;
    return fanOutOf(fieldType, bound) * (1 + childComplexity);
  };
}

const INTROSPECTION_QUERY = parse(getIntrospectionQuery());
const estimators = new WeakMap<GraphQLSchema, ComplexityEstimator>();

/**
 * Estimated answer size of a field: itself and what it selects, times the bounds of its list levels. An
 * introspection root field (`__schema`, `__type`) is scaled so that the standard introspection query costs half
 * of MAX_QUERY_COST on any schema: tooling keeps working as commands are added, and data queries keep their
 * whole budget.
 */
export function fanOutEstimator(schema: GraphQLSchema): ComplexityEstimator {
  const known = estimators.get(schema);
  if (known !== undefined) return known;
  const raw = rawEstimator(introspectionBoundsOf(schema));
  const standard = getComplexity({
    schema,
    query: INTROSPECTION_QUERY,
    estimators: [raw],
    maxQueryNodes: Number.POSITIVE_INFINITY,
  });
  const scale = MAX_QUERY_COST / 2 / Math.max(standard, 1);
  const estimator: ComplexityEstimator = (args) => {
    const cost = raw(args);
    return args.field.name === '__schema' || args.field.name === '__type' ? Math.ceil(cost * scale) : cost;
  };
  estimators.set(schema, estimator);
  return estimator;
}

export type QueryCostRequest = {
  readonly variables?: Record<string, unknown> | null;
  readonly operationName?: string | null;
};

function refusal(message: string, code: ProblemCode): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

function costRule(request: QueryCostRequest): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema();
    const visitor = createComplexityRule({
      maximumComplexity: MAX_QUERY_COST,
      maxQueryNodes: MAX_SELECTIONS,
      estimators: [fanOutEstimator(schema)],
      variables: request.variables ?? {},
      createError: (max) =>
        refusal(
          `The query's estimated answer exceeds the limit of ${max} (every field counts once per item of ` +
            `every list above it; a list of ours counts as ${LIST_BOUND} items). Select fewer fields or lists.`,
          QUERY_TOO_COSTLY,
        ),
    })(context);
    // Only the operation the request runs is counted (the library's own name check fails on an anonymous
    // operation); which one that is, or that none is, is operation-selection-rule's to say.
    const counted = (node: OperationDefinitionNode) =>
      typeof request.operationName !== 'string' || node.name?.value === request.operationName;
    let refused = false;
    return {
      OperationDefinition: {
        enter(node) {
          if (!counted(node)) return;
          try {
            visitor.onOperationDefinitionEnter(node);
          } catch (error) {
            // The library throws for its node count; a value it cannot read (a variable, an @include argument)
            // is graphql's own rules' to report, as a validation error naming no value.
            if (!(error instanceof GraphQLError)) throw error;
            refused = true;
            if (/maximum allowed number of nodes/.test(error.message)) {
              context.reportError(
                refusal(
                  `An operation may select at most ${MAX_SELECTIONS} fields, fragments counted where spread.`,
                  TOO_MANY_SELECTIONS,
                ),
              );
            }
          }
        },
        leave(node) {
          if (counted(node) && !refused) visitor.onOperationDefinitionLeave(node);
        },
      },
    };
  };
}

function aliasRule(): ValidationRule {
  return (context: ValidationContext) => {
    let reported = false;
    return maxAliasesRule({
      n: MAX_ALIASES,
      propagateOnRejection: false,
      onReject: [
        () => {
          if (reported) return;
          reported = true;
          context.reportError(
            refusal(
              `An operation may use at most ${MAX_ALIASES} aliases, fragments counted where spread.`,
              TOO_MANY_ALIASES,
            ),
          );
        },
      ],
    })(context);
  };
}

/** The cost rules for one request (its variables and operation name decide what is selected). */
export function queryCostRules(request: QueryCostRequest): ValidationRule[] {
  return [aliasRule(), costRule(request)];
}
