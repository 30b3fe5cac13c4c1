import { throttleAddressKey } from './throttle-address';

describe('throttleAddressKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(throttleAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(throttleAddressKey('198.51.100.255')).toBe('198.51.100.255');
  });

  it('keys an IPv6 address by its /64, whatever the spelling', () => {
    const spellings = [
      '2001:db8:aa:1::1',
      '2001:0db8:00aa:0001:0000:0000:0000:0001',
      '2001:DB8:AA:1:ffff:ffff:ffff:fffe',
      '2001:db8:aa:1:1234::',
      '2001:db8:aa:1:0:0:0:0',
    ];
    expect(new Set(spellings.map(throttleAddressKey))).toEqual(new Set(['2001:db8:aa:1::/64']));
  });

  it('tells different /64s apart', () => {
    const keys = ['2001:db8:aa:1::1', '2001:db8:aa:2::1', '2001:db8:ab:1::1', '2001:db9:aa:1::1', '::1'].map(
      throttleAddressKey,
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keys an IPv4-mapped IPv6 address by the IPv4 address it carries', () => {
    expect(throttleAddressKey('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(throttleAddressKey('::FFFF:0102:0304')).toBe('1.2.3.4');
  });

  it('falls back to the raw text for what is not an address', () => {
    expect(throttleAddressKey('unknown')).toBe('unknown');
  });
});
