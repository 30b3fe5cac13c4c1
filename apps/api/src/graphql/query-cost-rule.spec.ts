import { COMMANDS } from '@gatehouse/commands';
import { getIntrospectionQuery, parse, specifiedRules, validate, type GraphQLError } from 'graphql';
import { getComplexity } from 'graphql-query-complexity';
import { buildCommandSchema } from './command-schema-builder';
import { operationSelectionRule } from './operation-selection-rule';
import {
  LIST_BOUND,
  MAX_ALIASES,
  MAX_QUERY_COST,
  MAX_SELECTIONS,
  fanOutEstimator,
  queryCostRules,
} from './query-cost-rule';

const noop = { execute: async () => ({}) };
const schema = buildCommandSchema(new Map(COMMANDS.map((command) => [command, noop])));

function codesOf(
  query: string,
  request: { variables?: Record<string, unknown>; operationName?: string } = {},
): unknown[] {
  const errors: readonly GraphQLError[] = validate(schema, parse(query), [
    ...specifiedRules,
    operationSelectionRule(request.operationName),
    ...queryCostRules(request),
  ]);
  return errors.map((error) => error.extensions.code ?? error.message);
}

function costOf(query: string): number {
  return getComplexity({ schema, query: parse(query), estimators: [fanOutEstimator(schema)] });
}

describe('query cost rules', () => {
  it('counts every field once per item of every list of objects above it; scalar lists are one value', () => {
    expect(costOf('{ me { via scopes } }')).toBe(3);
    expect(costOf('{ workspaces { items { id name } nextCursor } }')).toBe(1 + LIST_BOUND * 3 + 1);
    expect(costOf('{ tokens { items { scopes } } }')).toBe(1 + LIST_BOUND * 2);
    const nested = costOf('{ approvalRequests { items { changes { kind } } } }');
    expect(nested).toBe(1 + LIST_BOUND * (1 + LIST_BOUND * 2));
  });

  it('prices the standard introspection query at half the budget, and accepts it', () => {
    const cost = costOf(getIntrospectionQuery());
    expect(cost).toBeGreaterThanOrEqual(MAX_QUERY_COST / 2);
    expect(cost).toBeLessThan((MAX_QUERY_COST / 2) * 1.01);
    expect(codesOf(getIntrospectionQuery())).toEqual([]);
  });

  it('refuses aliases over the limit, counting a fragment at every spread, once', () => {
    const aliases = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => `${prefix}${i}: via`).join(' ');
    expect(codesOf(`{ me { ${aliases(MAX_ALIASES, 'a')} } }`)).toEqual([]);
    expect(codesOf(`{ me { ${aliases(MAX_ALIASES + 1, 'a')} } }`)).toEqual(['too_many_aliases']);
    const half = Math.ceil((MAX_ALIASES + 1) / 2);
    expect(
      codesOf(`{ me { ...A } tenant { id } x: me { ...A } } fragment A on Caller { ${aliases(half, 'a')} }`),
    ).toEqual(['too_many_aliases']);
  });

  it('refuses a fragment bomb by its selections, without walking all of it', () => {
    const fragments = ['fragment F0 on Query { me { via } }'];
    for (let i = 1; i <= 30; i++) fragments.push(`fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }`);
    expect(codesOf(`{ ...F30 } ${fragments.join(' ')}`)).toEqual(['too_many_selections']);
    expect(MAX_SELECTIONS).toBeLessThan(2 ** 30);
  });

  it('reads @include and @skip from the request’s variables', () => {
    const query =
      'query($big: Boolean!) { me { via } ... @include(if: $big) { ' +
      'approvalRequests { items { changes { kind path before after } } } ' +
      'a: approvalRequests { items { changes { kind path before after } } } } }';
    expect(codesOf(query, { variables: { big: false } })).toEqual([]);
    expect(codesOf(query, { variables: { big: true } })).toEqual(['query_too_costly']);
  });

  it('counts only the operation the request runs', () => {
    const query =
      'query Small { me { via } } query Big { approvalRequests { items { changes { kind path before after } } } ' +
      'a: approvalRequests { items { changes { kind path before after } } } }';
    expect(codesOf(query, { operationName: 'Small' })).toEqual([]);
    expect(codesOf(query, { operationName: 'Big' })).toEqual(['query_too_costly']);
    expect(codesOf('{ me { via } }', { operationName: 'Small' })).toEqual(['unknown_operation']);
  });
});

describe('operation selection rule', () => {
  it.each([
    ['query A { me { via } } query B { me { via } }', undefined, 'operation_name_required'],
    ['query A { me { via } }', 'B', 'unknown_operation'],
    ['{ me { via } }', 'A', 'unknown_operation'],
    ['subscription { me { via } }', undefined, 'subscriptions_unsupported'],
    ['query A { me { via } } subscription S { me { via } }', 'S', 'subscriptions_unsupported'],
  ])('%s (operationName %s) → %s', (query, operationName, code) => {
    expect(codesOf(query, operationName === undefined ? {} : { operationName })).toContain(code);
  });

  it('passes the operation named in a document of several, and a lone anonymous one', () => {
    expect(codesOf('query A { me { via } } subscription S { me { via } }', { operationName: 'A' })).toEqual(
      [],
    );
    expect(codesOf('{ me { via } }')).toEqual([]);
  });
});
