import { isIpOrCidr } from './config-fields.js';

describe('isIpOrCidr', () => {
  it.each(['10.0.0.1', '10.0.0.0/8', '0.0.0.0/0', '::1', 'fd00::/8', '2001:db8::/128'])(
    'accepts %s',
    (value) => {
      expect(isIpOrCidr(value)).toBe(true);
    },
  );

  it.each([
    '',
    'localhost',
    '10.0.0.0/33',
    '::/129',
    '10.0.0.1/',
    '10.0.0.1/8/8',
    '10.0.0.256',
    '10.0.0.0/-1',
  ])('rejects %p', (value) => {
    expect(isIpOrCidr(value)).toBe(false);
  });
});
