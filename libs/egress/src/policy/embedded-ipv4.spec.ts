import { parseAddress } from './cidr';
import { unwrapIpv4 } from './embedded-ipv4';

function carried(text: string): string | null {
  return unwrapIpv4(parseAddress(text)!)?.carried.toString() ?? null;
}

describe('unwrapIpv4', () => {
  it.each([
    ['::ffff:169.254.169.254', '169.254.169.254'], // mapped
    ['::ffff:0:a9fe:a9fe', '169.254.169.254'], // SIIT
    ['::a9fe:a9fe', '169.254.169.254'], // compatible
    ['64:ff9b::a9fe:a9fe', '169.254.169.254'], // NAT64 well-known
    ['64:ff9b:1::a9fe:a9fe', '169.254.169.254'], // NAT64 local-use, /96 layout
    ['2002:a9fe:a9fe:1::5', '169.254.169.254'], // 6to4
  ])('finds the IPv4 address inside %s', (text, expected) => {
    expect(carried(text)).toBe(expected);
  });

  it.each(['::', '::1', '2606:2800:220:1::1', 'fd00:ec2::254', '1.2.3.4'])('finds none in %s', (text) => {
    expect(carried(text)).toBeNull();
  });

  it('marks the local-use NAT64 carrier as private itself', () => {
    expect(unwrapIpv4(parseAddress('64:ff9b:1::5db8:d822')!)?.carrierClass).toBe('private');
    expect(unwrapIpv4(parseAddress('64:ff9b::5db8:d822')!)?.carrierClass).toBeNull();
  });
});
