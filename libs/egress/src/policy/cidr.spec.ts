import { cidrWithin, formatAddress, isCidr, parseAddress, parseCidr } from './cidr';

describe('parseAddress', () => {
  it.each([
    '1.2.3.4',
    '0.0.0.0',
    '255.255.255.255',
    '::1',
    '2606:2800:220:1::1',
    '::ffff:1.2.3.4',
    'fe80::1%eth0',
  ])('reads %s', (text) => {
    expect(parseAddress(text)).not.toBeNull();
  });

  it.each([
    '010.0.0.1',
    '0x7f.1',
    '127.1',
    '2130706433',
    '1.2.3.04',
    ' 1.2.3.4',
    '256.1.1.1',
    '[::1]',
    '1::2::3',
    'localhost',
    '',
  ])('refuses the non-canonical spelling %j rather than guessing', (text) => {
    expect(parseAddress(text)).toBeNull();
  });

  it('formats IPv6 in RFC 5952 form and keeps a zone', () => {
    expect(formatAddress(parseAddress('2606:2800:0220:0001:0000:0000:0000:0001')!)).toBe(
      '2606:2800:220:1::1',
    );
    expect(formatAddress(parseAddress('FE80::1%eth0')!)).toBe('fe80::1%eth0');
  });
});

describe('parseCidr / isCidr', () => {
  it.each(['10.0.0.0/8', '0.0.0.0/0', '1.2.3.4/32', 'fd00::/8', '::/0', '::ffff:10.0.0.0/104'])(
    'accepts %s',
    (text) => {
      expect(isCidr(text)).toBe(true);
    },
  );

  it.each([
    '10.0.0.0',
    '10.0.0.0/33',
    '::/129',
    '10.0.0.0/-1',
    '10.0.0.0/8/8',
    '010.0.0.0/8',
    '10/8',
    'example.com/8',
    '10.0.0.0/0x8',
    '',
  ])('refuses %j', (text) => {
    expect(isCidr(text)).toBe(false);
  });

  it('reads an IPv4-mapped IPv6 range as the IPv4 range it names', () => {
    const range = parseCidr('::ffff:10.0.0.0/104');
    expect(range?.network.kind()).toBe('ipv4');
    expect(range?.prefix).toBe(8);
  });
});

describe('cidrWithin', () => {
  it.each([
    ['10.1.0.0/16', '10.0.0.0/8', true],
    ['10.0.0.0/8', '10.0.0.0/8', true],
    ['10.0.0.0/7', '10.0.0.0/8', false],
    ['11.0.0.0/16', '10.0.0.0/8', false],
    ['fd12::/16', 'fd00::/8', true],
    ['fd00::/8', '10.0.0.0/8', false],
    ['::ffff:10.1.0.0/112', '10.0.0.0/8', true],
    ['nonsense', '10.0.0.0/8', false],
  ] as const)('%s within %s: %s', (inner, outer, expected) => {
    expect(cidrWithin(inner, outer)).toBe(expected);
  });
});
