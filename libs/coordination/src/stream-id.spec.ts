import { compareStreamIds, isStreamId, normalizeStreamId, parseStreamId, STREAM_START_ID } from './stream-id';

describe('stream ids', () => {
  it('parses ms and seq as bigints, beyond 2^53', () => {
    expect(parseStreamId('18446744073709551615-7')).toEqual({ ms: 18446744073709551615n, seq: 7n });
  });

  it('treats a bare 0 as the start id', () => {
    expect(normalizeStreamId('0')).toBe(STREAM_START_ID);
    expect(compareStreamIds('0', '0-0')).toBe(0);
  });

  it.each([
    '',
    '1',
    '1-',
    '-1',
    '1-2-3',
    'a-1',
    '1-b',
    ' 1-1',
    '1-1\n',
    '+',
    '-',
    '(1-1',
    '123456789012345678901-0',
  ])('rejects %j', (value) => {
    expect(isStreamId(value)).toBe(false);
    expect(() => compareStreamIds(value, '1-0')).toThrow(TypeError);
  });

  it('orders numerically, not lexically', () => {
    expect(compareStreamIds('9-0', '10-0')).toBeLessThan(0);
    expect(compareStreamIds('10-0', '9-0')).toBeGreaterThan(0);
    expect(compareStreamIds('5-9', '5-10')).toBeLessThan(0);
    expect(compareStreamIds('5-10', '5-10')).toBe(0);
  });

  it('orders by ms before seq', () => {
    expect(compareStreamIds('6-0', '5-99')).toBeGreaterThan(0);
  });
});
