// IPv6 forms that deliver to an IPv4 address. Each is judged by the IPv4 address it carries (and by the class
// of the carrier range itself), so `::ffff:169.254.169.254` or `64:ff9b::a9fe:a9fe` is refused exactly like
// `169.254.169.254`, and `::ffff:93.184.216.34` is as public as `93.184.216.34`.
import ipaddr from 'ipaddr.js';
import { cidrConstant, rangeContains, type IpAddress } from './cidr.js';
import type { RangeClass } from './special-ranges.js';

export interface CarriedIpv4 {
  readonly carried: ipaddr.IPv4;
  /** The class of the carrier range on its own; null when it only transports the IPv4 address. */
  readonly carrierClass: RangeClass | null;
}

interface Carrier {
  readonly range: ReturnType<typeof cidrConstant>;
  /** Index of the first of the two 16-bit groups holding the IPv4 address. */
  readonly at: number;
  readonly carrierClass: RangeClass | null;
}

const CARRIERS: readonly Carrier[] = [
  { range: cidrConstant('::ffff:0:0/96'), at: 6, carrierClass: null }, // RFC 4291 IPv4-mapped
  { range: cidrConstant('::ffff:0:0:0/96'), at: 6, carrierClass: null }, // RFC 6145 SIIT IPv4-translated
  { range: cidrConstant('64:ff9b::/96'), at: 6, carrierClass: null }, // RFC 6052 well-known NAT64 prefix
  // RFC 8215 local-use NAT64: a translator inside the organization, so private itself. The operator picks the
  // prefix length; the /96 layout is the common one and the only one unwrapped.
  { range: cidrConstant('64:ff9b:1::/48'), at: 6, carrierClass: 'private' },
  { range: cidrConstant('2002::/16'), at: 1, carrierClass: null }, // RFC 3056 6to4: 2002:AABB:CCDD::/48
];

// RFC 4291 deprecated IPv4-compatible (`::a.b.c.d`). `::` and `::1` are not carriers but themselves.
const COMPATIBLE = cidrConstant('::/96');

function fromGroups(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

export function unwrapIpv4(address: IpAddress): CarriedIpv4 | null {
  if (address.kind() !== 'ipv6') return null;
  const parts = (address as ipaddr.IPv6).parts;
  for (const { range, at, carrierClass } of CARRIERS) {
    if (rangeContains(range, address)) {
      return { carried: fromGroups(parts[at] ?? 0, parts[at + 1] ?? 0), carrierClass };
    }
  }
  if (rangeContains(COMPATIBLE, address)) {
    const high = parts[6] ?? 0;
    const low = parts[7] ?? 0;
    if (high === 0 && low <= 1) return null;
    return { carried: fromGroups(high, low), carrierClass: null };
  }
  return null;
}
