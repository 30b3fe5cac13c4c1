import fc from 'fast-check';
import { readToolAxes } from './tool-axes-reader';

describe('readToolAxes', () => {
  it('reads absent as nothing declared', () => {
    expect(readToolAxes(undefined)).toEqual({ ok: true, value: undefined });
  });

  it('copies a legal declaration and drops empty per-tool objects', () => {
    const declared = {
      search: { effect: 'read', egress: false },
      wipe: { irreversibility: 'always' },
      noop: {},
    };
    const read = readToolAxes(declared);
    expect(read).toEqual({
      ok: true,
      value: { search: { effect: 'read', egress: false }, wipe: { irreversibility: 'always' } },
    });
    if (!read.ok) throw new Error('unreachable');
    expect(read.value).not.toBe(declared);
    expect(Object.isFrozen(read.value)).toBe(true);
  });

  it('reads only empty per-tool objects as nothing declared', () => {
    expect(readToolAxes({ a: {}, b: {} })).toEqual({ ok: true, value: undefined });
  });

  it.each([
    ['a list', [], [], 'wrong_type'],
    ['null', null, [], 'wrong_type'],
    ['a string', 'read', [], 'wrong_type'],
    ['an empty tool name', { '': { effect: 'read' } }, [''], 'empty_name'],
    ['a tool that is not an object', { a: 'read' }, ['a'], 'wrong_type'],
    ['an unknown member', { a: { effect: 'read', danger: 'low' } }, ['a', 'danger'], 'unknown_member'],
    ['a word outside the vocabulary', { a: { effect: 'readonly' } }, ['a', 'effect'], 'not_in_vocabulary'],
    ['a non-boolean egress', { a: { egress: 'false' } }, ['a', 'egress'], 'wrong_type'],
    [
      'a bad irreversibility',
      { a: { irreversibility: 'sometimes' } },
      ['a', 'irreversibility'],
      'not_in_vocabulary',
    ],
    ['a class instance', new Map([['a', {}]]), [], 'wrong_type'],
  ])('refuses %s naming the path', (_name, declared, path, reason) => {
    expect(readToolAxes(declared)).toEqual({ ok: false, reason, path });
  });

  it('refuses a tool named __proto__ (as JSON.parse builds it)', () => {
    const declared: unknown = JSON.parse('{"__proto__": {"effect": "read"}}');
    expect(readToolAxes(declared)).toEqual({ ok: false, reason: 'forbidden_name', path: ['__proto__'] });
  });

  it('one bad tool refuses the whole declaration, wherever it sits', () => {
    const goodAxis = fc.record(
      {
        effect: fc.constantFrom('read', 'idempotent', 'write'),
        egress: fc.boolean(),
        irreversibility: fc.constantFrom('always', 'never'),
      },
      { requiredKeys: [] },
    );
    const badAxis = fc.oneof(
      fc.record({ effect: fc.string().filter((s) => !['read', 'idempotent', 'write'].includes(s)) }),
      fc.record({ egress: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }),
      fc.record({ extra: fc.anything() }),
    );
    const toolName = fc.stringMatching(/^[A-Za-z0-9._-]{1,20}$/).filter((s) => s !== '__proto__');
    fc.assert(
      fc.property(fc.dictionary(toolName, goodAxis), toolName, badAxis, (good, badName, bad) => {
        const declared = { ...good, [badName]: bad };
        const read = readToolAxes(declared);
        expect(read.ok).toBe(false);
        if (!read.ok) expect(read.path[0]).toBe(badName);
      }),
    );
  });

  it('never puts a declared value in a refusal', () => {
    const secret = 'sk-live-canary-123456';
    const read = readToolAxes({ a: { effect: secret } });
    expect(JSON.stringify(read)).not.toContain(secret);
  });
});
