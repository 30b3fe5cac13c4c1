import fc from 'fast-check';
import { diffProjections } from './projection-diff';

const MASK = '[REDACTED]';

const httpProjection = {
  transport: {
    kind: 'http',
    url: 'https://api.example.com/mcp',
    headers: { state: 'redacted', keys: ['Authorization', 'X-Team'] },
    headersHelper: null,
    oauth: null,
    principalHeader: null,
  },
  requiresTrustedWorkspace: false,
  options: { startupTimeoutMs: 10_000 },
};

const stdioProjection = {
  transport: {
    kind: 'stdio',
    command: 'npx',
    args: ['-y', '@acme/server', `--token=${MASK}`],
    commandLine: `npx -y @acme/server --token=${MASK}`,
    cwd: null,
    env: { state: 'none' },
  },
  requiresTrustedWorkspace: false,
  options: {},
};

describe('diffProjections', () => {
  it('finds nothing between identical projections', () => {
    expect(diffProjections(httpProjection, structuredClone(httpProjection))).toEqual([]);
  });

  it('lists exactly the changed fields, with their values before and after', () => {
    const after = {
      ...httpProjection,
      transport: {
        ...httpProjection.transport,
        url: 'https://api.example.net/mcp',
        headers: { state: 'redacted', keys: ['Authorization'] },
      },
      requiresTrustedWorkspace: true,
    };
    expect(diffProjections(httpProjection, after)).toEqual([
      { kind: 'changed', path: ['requiresTrustedWorkspace'], before: false, after: true },
      {
        kind: 'changed',
        path: ['transport', 'headers', 'keys'],
        before: ['Authorization', 'X-Team'],
        after: ['Authorization'],
      },
      {
        kind: 'changed',
        path: ['transport', 'url'],
        before: 'https://api.example.com/mcp',
        after: 'https://api.example.net/mcp',
      },
    ]);
  });

  it('reports added and removed members', () => {
    const after = { ...httpProjection, options: { allowTools: ['search'] } };
    expect(diffProjections(httpProjection, after)).toEqual([
      { kind: 'added', path: ['options', 'allowTools'], after: ['search'] },
      { kind: 'removed', path: ['options', 'startupTimeoutMs'], before: 10_000 },
    ]);
  });

  it('reports a list as one value (an inserted argument does not shift every later position)', () => {
    const after = {
      ...stdioProjection,
      transport: {
        ...stdioProjection.transport,
        args: ['-y', '--verbose', '@acme/server', `--token=${MASK}`],
      },
    };
    const changes = diffProjections(stdioProjection, after);
    expect(changes).toEqual([
      {
        kind: 'changed',
        path: ['transport', 'args'],
        before: stdioProjection.transport.args,
        after: after.transport.args,
      },
    ]);
  });

  it('passes masked values through as they are', () => {
    const after = {
      ...stdioProjection,
      transport: { ...stdioProjection.transport, commandLine: `npx -y @acme/server --token=${MASK} --debug` },
    };
    expect(diffProjections(stdioProjection, after)).toEqual([
      {
        kind: 'changed',
        path: ['transport', 'commandLine'],
        before: `npx -y @acme/server --token=${MASK}`,
        after: `npx -y @acme/server --token=${MASK} --debug`,
      },
    ]);
  });

  it('reports a change of shape (null to an object, stdio to http) at the field that changed', () => {
    const withOauth = {
      ...httpProjection,
      transport: {
        ...httpProjection.transport,
        oauth: { clientId: 'c1', scopes: [], allowSharedCredential: false },
      },
    };
    expect(diffProjections(httpProjection, withOauth)).toEqual([
      { kind: 'changed', path: ['transport', 'oauth'], before: null, after: withOauth.transport.oauth },
    ]);
    const paths = diffProjections(stdioProjection, httpProjection).map((change) => change.path.join('.'));
    expect(paths).toEqual([
      'options.startupTimeoutMs',
      'transport.args',
      'transport.command',
      'transport.commandLine',
      'transport.cwd',
      'transport.env',
      'transport.headers',
      'transport.headersHelper',
      'transport.kind',
      'transport.oauth',
      'transport.principalHeader',
      'transport.url',
    ]);
  });

  it('treats a member holding undefined as absent', () => {
    expect(diffProjections({ a: 1, b: undefined }, { a: 1 })).toEqual([]);
  });

  it('with no previous projection, reports the whole new one', () => {
    expect(diffProjections(null, httpProjection)).toEqual([
      { kind: 'changed', path: [], before: null, after: httpProjection },
    ]);
  });

  describe('properties', () => {
    const leaf = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.integer({ min: 0, max: 3 }),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string({ maxLength: 2 }), { maxLength: 3 }),
    );
    const fieldName = fc.constantFrom('url', 'command', 'cwd', 'kind', 'keys', 'state', 'x');
    const doc = fc.letrec((tie) => ({
      node: fc.dictionary(fieldName, fc.oneof({ depthSize: 'small' }, leaf, tie('node')), { maxKeys: 5 }),
    })).node;

    const read = (value: unknown, path: readonly string[]): unknown => {
      let at: unknown = value;
      for (const key of path) at = (at as Record<string, unknown> | undefined)?.[key];
      return at;
    };

    it('diff of a projection with itself is empty, and empty only for equal projections', () => {
      fc.assert(
        fc.property(doc, doc, (a, b) => {
          expect(diffProjections(a, structuredClone(a))).toEqual([]);
          expect(diffProjections(a, b).length === 0).toBe(
            JSON.stringify(sortDeep(a)) === JSON.stringify(sortDeep(b)),
          );
        }),
      );
    });

    it('every change reports the values found at its path on each side', () => {
      fc.assert(
        fc.property(doc, doc, (a, b) => {
          for (const change of diffProjections(a, b)) {
            switch (change.kind) {
              case 'added':
                expect(read(a, change.path)).toBeUndefined();
                expect(read(b, change.path)).toEqual(change.after);
                break;
              case 'removed':
                expect(read(a, change.path)).toEqual(change.before);
                expect(read(b, change.path)).toBeUndefined();
                break;
              case 'changed':
                expect(read(a, change.path)).toEqual(change.before);
                expect(read(b, change.path)).toEqual(change.after);
                expect(change.before).not.toEqual(change.after);
                break;
            }
          }
        }),
      );
    });

    it('reports exactly the leaf fields that were changed', () => {
      const flat = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), fc.string({ maxLength: 3 }), {
        minKeys: 1,
      });
      fc.assert(
        fc.property(
          flat.chain((base) => fc.tuple(fc.constant(base), fc.subarray(Object.keys(base)))),
          ([base, touched]) => {
            const after = { transport: { ...base } };
            for (const key of touched) after.transport[key] = `${base[key] ?? ''}!`;
            const changed = diffProjections({ transport: base }, after).map((change) =>
              change.path.join('.'),
            );
            expect(changed).toEqual(touched.map((key) => `transport.${key}`).sort());
          },
        ),
      );
    });
  });
});

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortDeep((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
