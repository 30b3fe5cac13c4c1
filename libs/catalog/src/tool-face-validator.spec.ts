import { checkToolFace } from './tool-face-validator';

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    mode: { type: 'string', enum: ['r', 'w'] },
    count: { type: ['integer', 'null'] },
    flag: { const: true },
    options: { type: 'object', properties: {} },
    anything: {},
    list: { type: 'array', items: { type: 'string' } },
  },
  required: ['path'],
};

describe('checkToolFace', () => {
  it('accepts a face that fits the schema', () => {
    expect(
      checkToolFace(
        {
          family: 'file-write',
          pathTarget: { param: 'path' },
          renderHints: { displayName: 'Write', approvalCard: ['path', 'options'] },
          ruleFace: { keys: ['mode', 'count', 'flag'] },
        },
        schema,
      ),
    ).toEqual({ ok: true });
    expect(checkToolFace({ pathTarget: { param: 'anything' } }, schema)).toEqual({ ok: true });
  });

  it('names every fault, each at its path', () => {
    expect(
      checkToolFace(
        {
          family: 'teleport',
          pathTarget: { param: 'count' },
          renderHints: { approvalCard: ['path', 'missing'] },
          ruleFace: { keys: ['options', 'anything', 'list', 'gone'] },
        },
        schema,
      ),
    ).toEqual({
      ok: false,
      faults: [
        { path: ['family'], problem: 'unknown_family' },
        { path: ['pathTarget', 'param'], problem: 'not_a_string_property' },
        { path: ['renderHints', 'approvalCard', 1], problem: 'not_a_property' },
        { path: ['ruleFace', 'keys', 0], problem: 'not_a_scalar_property' },
        { path: ['ruleFace', 'keys', 1], problem: 'not_a_scalar_property' },
        { path: ['ruleFace', 'keys', 2], problem: 'not_a_scalar_property' },
        { path: ['ruleFace', 'keys', 3], problem: 'not_a_property' },
      ],
    });
  });

  it('refuses property faces on a schema that is not an object, and reads inherited names as absent', () => {
    expect(checkToolFace({ pathTarget: { param: 'x' } }, { type: 'string' })).toEqual({
      ok: false,
      faults: [{ path: ['pathTarget', 'param'], problem: 'schema_not_object' }],
    });
    expect(checkToolFace({ pathTarget: { param: 'toString' } }, { type: 'object' })).toEqual({
      ok: false,
      faults: [{ path: ['pathTarget', 'param'], problem: 'not_a_property' }],
    });
  });
});
