import {
  admitToolResult,
  DEFAULT_MAX_RESULT_CHARS,
  measureResultChars,
  readResultCap,
  RESULT_CAP_META_KEY,
  withheldResult,
} from './result-cap.policy';

describe('readResultCap', () => {
  it('defaults to 100,000 characters when nothing is asked', () => {
    expect(readResultCap(undefined)).toEqual({ maxChars: DEFAULT_MAX_RESULT_CHARS, requested: false });
    expect(readResultCap({ other: 5 })).toEqual({ maxChars: 100_000, requested: false });
  });

  it('takes a whole number between 1,000 and 1,000,000, narrower or wider', () => {
    expect(readResultCap({ [RESULT_CAP_META_KEY]: 1_000 })).toEqual({ maxChars: 1_000, requested: true });
    expect(readResultCap({ [RESULT_CAP_META_KEY]: 1_000_000 })).toEqual({
      maxChars: 1_000_000,
      requested: true,
    });
  });

  it.each([
    [999, 'result_cap_out_of_range'],
    [1_000_001, 'result_cap_out_of_range'],
    [-5, 'result_cap_out_of_range'],
    [Number.MAX_SAFE_INTEGER, 'result_cap_out_of_range'],
    ['500000', 'result_cap_malformed'],
    [1500.5, 'result_cap_malformed'],
    [Number.POSITIVE_INFINITY, 'result_cap_malformed'],
    [Number.NaN, 'result_cap_malformed'],
    [null, 'result_cap_malformed'],
    [{ chars: 5000 }, 'result_cap_malformed'],
  ])('ignores %p with a diagnostic and keeps the default, never widening', (asked, diagnostic) => {
    expect(readResultCap({ [RESULT_CAP_META_KEY]: asked })).toEqual({
      maxChars: DEFAULT_MAX_RESULT_CHARS,
      requested: false,
      diagnostic,
    });
  });
});

describe('admitToolResult', () => {
  const cap = { maxChars: 1_000, requested: true };

  it('counts text, data, embedded resources, links and structured content', () => {
    expect(
      measureResultChars({
        content: [
          { type: 'text', text: 'abc' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'u://x', text: 'hello' } },
          { type: 'resource_link', uri: 'u://y', name: 'n' },
        ],
        structuredContent: { a: 1 },
      }),
    ).toBe(3 + 4 + 5 + 5 + 5 + 1 + JSON.stringify({ a: 1 }).length);
  });

  it('admits a result at the cap and refuses one over it whole', () => {
    const at = { content: [{ type: 'text', text: 'x'.repeat(1_000) }] };
    expect(admitToolResult(at, cap)).toEqual({ ok: true, result: at, chars: 1_000 });
    const over = {
      content: [
        { type: 'text', text: 'x'.repeat(600) },
        { type: 'text', text: 'y'.repeat(401) },
      ],
    };
    expect(admitToolResult(over, cap)).toEqual({
      ok: false,
      reason: 'result_too_large',
      chars: 1_001,
      maxChars: 1_000,
    });
  });

  it('hands on a tool error naming sizes only', () => {
    const withheld = withheldResult({ chars: 2_000_000, maxChars: 100_000 });
    expect(withheld.isError).toBe(true);
    expect(withheld.content[0]?.text).toContain('2000000');
    expect(withheld.content[0]?.text).toContain('100000');
  });
});
