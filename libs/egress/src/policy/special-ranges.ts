// Which addresses are not the public Internet, after the IANA special-purpose registries. Classes:
// - loopback: this host. Opened only by the operator's allowInsecureLoopback (development and tests).
// - private: networks an organization may really run services in. Opened only where the operator allows the
//   range AND the tenant opted in.
// - reserved: nothing legitimate to connect to (unspecified, multicast, broadcast, documentation, benchmarking,
//   deprecated tunnels). Never opened.
// Ranges that carry an IPv4 address inside IPv6 are not here: see embedded-ipv4.ts.
import { cidrConstant, rangeContains, type CidrRange, type IpAddress } from './cidr.js';

export type RangeClass = 'loopback' | 'private' | 'reserved';

interface SpecialRange {
  readonly range: CidrRange;
  readonly rangeClass: RangeClass;
}

function table(entries: readonly (readonly [string, RangeClass])[]): readonly SpecialRange[] {
  return entries.map(([cidr, rangeClass]) => ({ range: cidrConstant(cidr), rangeClass }));
}

const IPV4_SPECIAL = table([
  ['0.0.0.0/8', 'reserved'], // "this network", 0.0.0.0 unspecified (connects to this host on Linux)
  ['127.0.0.0/8', 'loopback'],
  ['10.0.0.0/8', 'private'], // RFC 1918
  ['172.16.0.0/12', 'private'], // RFC 1918
  ['192.168.0.0/16', 'private'], // RFC 1918
  ['100.64.0.0/10', 'private'], // RFC 6598 shared address space (CGNAT)
  ['169.254.0.0/16', 'private'], // RFC 3927 link-local (metadata addresses inside it are refused first)
  ['192.0.0.0/24', 'reserved'], // RFC 6890 IETF protocol assignments
  ['192.0.2.0/24', 'reserved'], // RFC 5737 TEST-NET-1
  ['192.88.99.0/24', 'reserved'], // RFC 7526 deprecated 6to4 relay anycast
  ['198.18.0.0/15', 'reserved'], // RFC 2544 benchmarking
  ['198.51.100.0/24', 'reserved'], // RFC 5737 TEST-NET-2
  ['203.0.113.0/24', 'reserved'], // RFC 5737 TEST-NET-3
  ['224.0.0.0/4', 'reserved'], // multicast
  ['240.0.0.0/4', 'reserved'], // RFC 1112 reserved, includes 255.255.255.255 broadcast
]);

const IPV6_SPECIAL = table([
  ['::/128', 'reserved'], // unspecified
  ['::1/128', 'loopback'],
  ['fc00::/7', 'private'], // RFC 4193 unique-local
  ['fe80::/10', 'private'], // link-local
  ['fec0::/10', 'private'], // RFC 3879 deprecated site-local, still routed inside some networks
  ['64:ff9b:1::/48', 'private'], // RFC 8215 local-use NAT64: a translator inside the organization
  ['::/8', 'reserved'], // IETF reserved (carriers such as ::ffff:0:0/96 are unwrapped before this table)
  ['100::/64', 'reserved'], // RFC 6666 discard-only
  ['2001::/32', 'reserved'], // RFC 4380 Teredo: hides an obfuscated IPv4 client address
  ['2001:2::/48', 'reserved'], // RFC 5180 benchmarking
  ['2001:10::/28', 'reserved'], // RFC 4843 deprecated ORCHID
  ['2001:20::/28', 'reserved'], // RFC 7343 ORCHIDv2
  ['2001:db8::/32', 'reserved'], // RFC 3849 documentation
  ['3fff::/20', 'reserved'], // RFC 9637 documentation
  ['5f00::/16', 'reserved'], // RFC 9602 segment routing SIDs
  ['ff00::/8', 'reserved'], // multicast
]);

// Global unicast (2000::/3) is the only IPv6 space assigned for the public Internet; everything else not named
// above is unassigned and has nothing legitimate to reach.
const IPV6_GLOBAL_UNICAST = cidrConstant('2000::/3');

export function specialRangeClass(address: IpAddress): RangeClass | null {
  const rows = address.kind() === 'ipv4' ? IPV4_SPECIAL : IPV6_SPECIAL;
  for (const row of rows) {
    if (rangeContains(row.range, address)) return row.rangeClass;
  }
  if (address.kind() === 'ipv6' && !rangeContains(IPV6_GLOBAL_UNICAST, address)) return 'reserved';
  return null;
}
