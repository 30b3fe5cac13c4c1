import { findJsonShapeProblem } from './json-shape.guard';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

describe('findJsonShapeProblem', () => {
  it('accepts scalars and values within the bounds', () => {
    expect(findJsonShapeProblem('text', { maxDepth: 1 })).toBeNull();
    expect(findJsonShapeProblem(null, { maxDepth: 1 })).toBeNull();
    expect(findJsonShapeProblem(nested(64), { maxDepth: 64 })).toBeNull();
    expect(findJsonShapeProblem({ a: [1, 2, 3] }, { maxDepth: 2, maxMembers: 3 })).toBeNull();
  });

  it('names the depth bound and the path of the first container past it', () => {
    expect(findJsonShapeProblem(nested(65), { maxDepth: 64 })).toEqual({
      bound: 'depth',
      limit: 64,
      path: Array.from({ length: 64 }, () => ({ key: 'a', index: 0 })),
    });
    expect(findJsonShapeProblem({ x: 1, y: [[1]] }, { maxDepth: 2 })).toEqual({
      bound: 'depth',
      limit: 2,
      path: [
        { key: 'y', index: 1 },
        { key: 0, index: 0 },
      ],
    });
  });

  it('judges 100,000 levels without overflowing the stack', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const problem = findJsonShapeProblem(JSON.parse(text), { maxDepth: 64 });
    expect(problem).toMatchObject({ bound: 'depth', limit: 64 });
    expect(problem?.path).toHaveLength(64);
  });

  it('names the members bound for an object or an array with too many', () => {
    const wide = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, i]));
    expect(findJsonShapeProblem({ inner: wide }, { maxDepth: 8, maxMembers: 4 })).toEqual({
      bound: 'members',
      limit: 4,
      path: [{ key: 'inner', index: 0 }],
    });
    expect(findJsonShapeProblem([1, 2, 3], { maxDepth: 8, maxMembers: 2 })).toEqual({
      bound: 'members',
      limit: 2,
      path: [],
    });
  });
});
