import fc from 'fast-check';
import { checkArguments } from './narrowed-schema.guard';
import { narrowInputSchema } from './schema-narrowing';

const accepts = (schema: unknown, value: unknown) => checkArguments(narrowInputSchema(schema).schema, value);

describe('narrowInputSchema', () => {
  it('keeps a schema inside the subset whole and reports nothing', () => {
    const schema = {
      type: 'object',
      description: 'd',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 5 },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, uniqueItems: true, maxItems: 2 },
        nested: {
          type: 'object',
          properties: { n: { type: 'integer', minimum: 0, exclusiveMaximum: 10, multipleOf: 2 } },
          required: ['n'],
          additionalProperties: false,
        },
        either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['name'],
      additionalProperties: false,
    };
    const result = narrowInputSchema(schema);
    expect(result.dropped).toEqual([]);
    expect(result.schema).toEqual(schema);
  });

  it('enforces everything expressible, nested objects and array items included', () => {
    const schema = {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'integer' } },
            required: ['id'],
            additionalProperties: false,
          },
        },
      },
      required: ['list'],
      additionalProperties: false,
    };
    expect(accepts(schema, { list: [{ id: 1 }, { id: 2 }] })).toEqual({ ok: true });
    expect(accepts(schema, { list: [{ id: 1 }, { id: 'x' }] })).toEqual({
      ok: false,
      reason: 'wrong_type',
      path: '/list/1/id',
    });
    expect(accepts(schema, { list: [{ id: 1, extra: true }] })).toEqual({
      ok: false,
      reason: 'unexpected_property',
      path: '/list/0/extra',
    });
    expect(accepts(schema, { list: [{}] })).toEqual({
      ok: false,
      reason: 'missing_required',
      path: '/list/0/id',
    });
    expect(accepts(schema, {})).toEqual({ ok: false, reason: 'missing_required', path: '/list' });
    expect(accepts(schema, { list: [], other: 1 })).toMatchObject({
      ok: false,
      reason: 'unexpected_property',
    });
  });

  it('drops an inexpressible keyword, never the property: a closed object still accepts its own parameter', () => {
    const schema = {
      type: 'object',
      properties: {
        when: { type: 'string', pattern: '^[0-9]{4}$' },
        shape: { not: { type: 'string' } },
        count: { type: 'integer', minimum: 1 },
      },
      required: ['when', 'shape'],
      additionalProperties: false,
    };
    const result = narrowInputSchema(schema);
    expect(result.dropped).toEqual([
      { path: '#/properties/when/pattern', reason: 'unsupported_keyword' },
      { path: '#/properties/shape/not', reason: 'unsupported_keyword' },
    ]);
    // `required` carried through untouched, the narrowed properties still declared.
    expect(result.schema.required).toEqual(['when', 'shape']);
    expect(Object.keys(result.schema.properties as object)).toEqual(['when', 'shape', 'count']);
    expect(accepts(schema, { when: 'not-four-digits', shape: 'a string' })).toEqual({ ok: true });
    // What stayed expressible is still enforced.
    expect(accepts(schema, { when: 5, shape: 1 })).toMatchObject({
      ok: false,
      reason: 'wrong_type',
      path: '/when',
    });
    expect(accepts(schema, { when: 'x', shape: 1, count: 0 })).toMatchObject({ reason: 'below_minimum' });
    expect(accepts(schema, { shape: 1 })).toMatchObject({ reason: 'missing_required', path: '/when' });
  });

  it('drops additionalProperties with patternProperties, items with prefixItems (they depend on them)', () => {
    const schema = {
      type: 'object',
      properties: {
        map: { type: 'object', patternProperties: { '^x': { type: 'string' } }, additionalProperties: false },
        tuple: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
        legacy: { type: 'array', items: [{ type: 'string' }], additionalItems: false },
      },
    };
    const result = narrowInputSchema(schema);
    expect(result.dropped).toEqual(
      expect.arrayContaining([
        { path: '#/properties/map/patternProperties', reason: 'unsupported_keyword' },
        { path: '#/properties/map/additionalProperties', reason: 'depends_on_dropped' },
        { path: '#/properties/tuple/prefixItems', reason: 'unsupported_keyword' },
        { path: '#/properties/tuple/items', reason: 'depends_on_dropped' },
        { path: '#/properties/legacy/items', reason: 'unsupported_keyword' },
        { path: '#/properties/legacy/additionalItems', reason: 'unsupported_keyword' },
      ]),
    );
    expect(accepts(schema, { map: { xa: 'v' }, tuple: ['a', 1], legacy: ['a', 2] })).toEqual({ ok: true });
    expect(accepts(schema, { map: 'no' })).toMatchObject({ reason: 'wrong_type', path: '/map' });
  });

  it('inlines local $ref targets and narrows a recursive one to accept-anything at the recursion', () => {
    const schema = {
      type: 'object',
      $defs: {
        Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
        Tree: { type: 'object', properties: { child: { $ref: '#/$defs/Tree' }, v: { type: 'integer' } } },
      },
      properties: {
        p: { $ref: '#/$defs/Point', description: 'a point' },
        t: { $ref: '#/$defs/Tree' },
        gone: { $ref: 'https://example.test/schema.json' },
      },
    };
    const result = narrowInputSchema(schema);
    expect(result.dropped).toEqual([
      { path: '#/properties/t/properties/child/$ref', reason: 'recursive_ref' },
      { path: '#/properties/gone/$ref', reason: 'unresolvable_ref' },
    ]);
    expect(accepts(schema, { p: { x: 1 }, t: { v: 1, child: { anything: true } }, gone: 5 })).toEqual({
      ok: true,
    });
    expect(accepts(schema, { p: {} })).toMatchObject({ reason: 'missing_required', path: '/p/x' });
    expect(accepts(schema, { t: { v: 'x' } })).toMatchObject({ reason: 'wrong_type', path: '/t/v' });
    expect(JSON.stringify(result.schema)).not.toContain('$ref');
  });

  it('keeps oneOf only while no branch is narrowed, else widens it to anyOf', () => {
    const exact = { type: 'object', properties: { v: { oneOf: [{ type: 'integer' }, { type: 'number' }] } } };
    expect(accepts(exact, { v: 1 })).toMatchObject({ reason: 'not_exactly_one' });
    expect(accepts(exact, { v: 1.5 })).toEqual({ ok: true });
    const widened = {
      type: 'object',
      properties: {
        v: {
          oneOf: [
            { type: 'string', pattern: 'a' },
            { type: 'string', pattern: 'b' },
          ],
        },
      },
    };
    const result = narrowInputSchema(widened);
    expect(result.dropped).toContainEqual({ path: '#/properties/v/oneOf', reason: 'one_of_widened' });
    expect(accepts(widened, { v: 'ab' })).toEqual({ ok: true });
    expect(accepts(widened, { v: 1 })).toMatchObject({ reason: 'no_branch_matched' });
  });

  it('reports malformed keywords and non-schemas, and always yields an object root', () => {
    const result = narrowInputSchema({
      type: 'object',
      properties: { a: { type: 'string', minLength: '3' }, b: 7, c: { exclusiveMinimum: true, minimum: 1 } },
      required: 'a',
    });
    expect(result.dropped).toEqual([
      { path: '#/properties/a/minLength', reason: 'malformed_keyword' },
      { path: '#/properties/b', reason: 'not_a_schema' },
      { path: '#/properties/c/exclusiveMinimum', reason: 'malformed_keyword' },
      { path: '#/required', reason: 'malformed_keyword' },
    ]);
    expect(narrowInputSchema('nope')).toEqual({
      schema: { type: 'object' },
      dropped: [{ path: '#', reason: 'not_a_schema' }],
      droppedNotListed: 0,
    });
  });

  it('reads keywords named like Object.prototype members as unknown keywords, not as its own tables', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"a":{"type":"string","constructor":1,"toString":{},"__proto__":{"x":1}}}}',
    ) as unknown;
    const result = narrowInputSchema(schema);
    expect(result.dropped).toEqual([
      { path: '#/properties/a/constructor', reason: 'unsupported_keyword' },
      { path: '#/properties/a/toString', reason: 'unsupported_keyword' },
      { path: '#/properties/a/__proto__', reason: 'unsupported_keyword' },
    ]);
    expect(result.schema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('bounds depth and size, and lists at most a fixed number of drops', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i += 1) deep = { type: 'object', properties: { d: deep } };
    const deepResult = narrowInputSchema(deep);
    expect(deepResult.dropped.map((d) => d.reason)).toEqual(['too_deep']);

    const wide: Record<string, unknown> = {};
    for (let i = 0; i < 200; i += 1) wide[`p${i}`] = { type: 'string', pattern: 'x' };
    const wideResult = narrowInputSchema({ type: 'object', properties: wide });
    expect(wideResult.dropped).toHaveLength(64);
    expect(wideResult.droppedNotListed).toBe(136);

    // Diamond-shaped refs would grow exponentially when inlined: the node budget stops it.
    const defs: Record<string, unknown> = { d0: { type: 'string' } };
    for (let i = 1; i <= 30; i += 1)
      defs[`d${i}`] = {
        type: 'object',
        properties: { l: { $ref: `#/$defs/d${i - 1}` }, r: { $ref: `#/$defs/d${i - 1}` } },
      };
    const diamond = narrowInputSchema({
      type: 'object',
      $defs: defs,
      properties: { x: { $ref: '#/$defs/d30' } },
    });
    expect(diamond.dropped.some((d) => d.reason === 'too_large' || d.reason === 'too_deep')).toBe(true);
  });

  it('is deterministic and idempotent: narrowing a narrowed schema changes nothing and reports nothing', () => {
    const jsonSchema = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.record({ type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'null') }),
        fc.record({ type: fc.constant('string'), pattern: fc.constant('^a') }),
        fc.record({ not: fc.record({ type: fc.constant('string') }) }),
        fc.record({ type: fc.constant('array'), items: tie('node') }),
        fc.record({
          type: fc.constant('object'),
          properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), tie('node'), { maxKeys: 3 }),
          additionalProperties: fc.boolean(),
        }),
        fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
      ),
    }));
    fc.assert(
      fc.property(jsonSchema.node, (node) => {
        const schema = { type: 'object', properties: { p: node } };
        const once = narrowInputSchema(schema);
        expect(narrowInputSchema(schema)).toEqual(once);
        const twice = narrowInputSchema(once.schema);
        expect(twice.dropped).toEqual([]);
        expect(twice.schema).toEqual(once.schema);
      }),
    );
  });

  it('only widens: adding an inexpressible keyword anywhere never refuses a value the schema accepted', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(value, fc.constantFrom('string', 'number', 'object', 'array'), (v, type) => {
        const base = { type: 'object', properties: { p: { type, minLength: 1, items: { type: 'string' } } } };
        const harder = {
          type: 'object',
          properties: { p: { type, minLength: 1, items: { type: 'string', not: {} }, if: {}, then: false } },
        };
        if (checkArguments(narrowInputSchema(base).schema, { p: v }).ok) {
          expect(checkArguments(narrowInputSchema(harder).schema, { p: v }).ok).toBe(true);
        }
      }),
    );
  });
});
