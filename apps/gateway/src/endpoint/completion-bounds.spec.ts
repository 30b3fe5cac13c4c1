import {
  boundedCompletion,
  completionInputRefusal,
  MAX_COMPLETION_CONTEXT_ARGUMENTS,
  MAX_COMPLETION_NAME_CHARS,
  MAX_COMPLETION_VALUE_CHARS,
  type UpstreamCompletionResult,
} from './completion-bounds';

describe('completion bounds', () => {
  const name = 'a'.repeat(MAX_COMPLETION_NAME_CHARS);
  const value = 'v'.repeat(MAX_COMPLETION_VALUE_CHARS);

  it('passes an argument and context at their bounds', () => {
    const context = Object.fromEntries(
      Array.from({ length: MAX_COMPLETION_CONTEXT_ARGUMENTS }, (_, i) => [`${i}`.padEnd(128, 'x'), value]),
    );
    expect(completionInputRefusal({ argument: { name, value }, context: { arguments: context } })).toBe(
      undefined,
    );
  });

  it.each([
    ['argument.name', { argument: { name: `${name}a`, value: '' } }],
    ['argument.value', { argument: { name: 'x', value: `${value}v` } }],
    [
      'context.arguments',
      {
        argument: { name: 'x', value: '' },
        context: {
          arguments: Object.fromEntries(
            Array.from({ length: MAX_COMPLETION_CONTEXT_ARGUMENTS + 1 }, (_, i) => [`k${i}`, '']),
          ),
        },
      },
    ],
    [
      'context.arguments',
      { argument: { name: 'x', value: '' }, context: { arguments: { [`${name}a`]: '' } } },
    ],
    ['context.arguments', { argument: { name: 'x', value: '' }, context: { arguments: { k: `${value}v` } } }],
  ] as const)('refuses %s over its bound, naming the field only', (field, input) => {
    expect(completionInputRefusal(input)).toEqual({ ok: false, reason: 'argument_too_large', field });
  });

  it('keeps the three fields of an answer, at most 100 values, none longer than a value a caller may send', () => {
    const upstream = {
      completion: {
        values: ['ok', `${value}v`, ...Array.from({ length: 120 }, (_, i) => `v${i}`)],
        total: 500,
        hasMore: true,
        extra: 'dropped',
      },
      _meta: { note: 'dropped' },
    } as UpstreamCompletionResult;
    const bounded = boundedCompletion(upstream);
    expect(bounded.completion.values).toHaveLength(99);
    expect(bounded.completion.values[0]).toBe('ok');
    expect(bounded.completion.values.every((v) => v.length <= MAX_COMPLETION_VALUE_CHARS)).toBe(true);
    expect(bounded).toEqual({ completion: { values: bounded.completion.values, total: 500, hasMore: true } });
    expect(boundedCompletion({ completion: { values: [], total: -1 } })).toEqual({
      completion: { values: [] },
    });
  });
});
