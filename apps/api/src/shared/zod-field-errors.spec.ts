import { z } from 'zod';
import { fieldErrorsOf } from './zod-field-errors';

describe('fieldErrorsOf', () => {
  const schema = z.strictObject({
    name: z.string().min(1),
    tags: z.array(z.enum(['a', 'b'])),
    nested: z.strictObject({ n: z.number() }).optional(),
  });

  it('lists paths and messages, one entry per unknown key, never the submitted values', () => {
    const secret = 'ghu_SomethingSecretLooking0123456789abcdef';
    const result = schema.safeParse({
      name: secret.length,
      tags: ['a', secret],
      extra: secret,
      nested: { n: secret, more: 1 },
    });
    if (result.success) throw new Error('expected failure');
    const errors = fieldErrorsOf(result.error);
    expect(errors.map((e) => e.path).sort()).toEqual(['extra', 'name', 'nested.more', 'nested.n', 'tags.1']);
    expect(errors.find((e) => e.path === 'extra')?.message).toBe('Unknown field.');
    expect(JSON.stringify(errors)).not.toContain(secret);
    expect(JSON.stringify(errors)).not.toContain(String(secret.length));
  });

  it('caps the list', () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]));
    const result = z.strictObject({}).safeParse(many);
    if (result.success) throw new Error('expected failure');
    expect(fieldErrorsOf(result.error)).toHaveLength(20);
  });
});
