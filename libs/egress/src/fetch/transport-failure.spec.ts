import { classifyTransportFailure } from './transport-failure';

const withCode = (code: string): Error => Object.assign(new Error('x'), { code });

describe('classifyTransportFailure', () => {
  it.each(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'])(
    'reads %s in the cause chain as a timeout',
    (code) => {
      expect(classifyTransportFailure(new TypeError('fetch failed', { cause: withCode(code) }))).toBe(
        'timeout',
      );
      expect(classifyTransportFailure(withCode(code))).toBe('timeout');
    },
  );

  it.each([
    withCode('ECONNREFUSED'),
    new TypeError('fetch failed', { cause: withCode('ECONNRESET') }),
    'text',
    null,
  ])('reads anything else as connection_failed', (error) => {
    expect(classifyTransportFailure(error)).toBe('connection_failed');
  });
});
