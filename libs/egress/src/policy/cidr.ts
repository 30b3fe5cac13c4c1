// Strict address and CIDR parsing over ipaddr.js. Only canonical spellings are accepted (dotted-quad IPv4,
// standard IPv6): a resolver answer or policy entry in an exotic spelling (`010.0.0.1`, `0x7f.1`) is refused
// rather than interpreted, because the OS would read such text differently from us or resolve it again.
import ipaddr from 'ipaddr.js';
import type { Cidr } from './egress-policy.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

export interface CidrRange {
  readonly network: IpAddress;
  readonly prefix: number;
}

export function parseAddress(text: string): IpAddress | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
}

/** The text a socket is given: dotted-quad, or RFC 5952 IPv6 (zone kept, so link-local stays usable). */
export function formatAddress(address: IpAddress): string {
  if (address.kind() === 'ipv4') return address.toString();
  return (address as ipaddr.IPv6).toRFC5952String();
}

function parseCidrExact(text: string): CidrRange | null {
  const parts = text.trim().split('/');
  if (parts.length !== 2) return null;
  const [addressText, prefixText] = parts as [string, string];
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const network = parseAddress(addressText);
  if (network === null) return null;
  const prefix = Number(prefixText);
  if (prefix > (network.kind() === 'ipv4' ? 32 : 128)) return null;
  return { network, prefix };
}

/** A policy CIDR. An IPv4-mapped one is read as the IPv4 range it names, because carried IPv4 addresses are
 * judged as IPv4: `::ffff:10.0.0.0/104` and `10.0.0.0/8` name the same hosts. */
export function parseCidr(text: string): CidrRange | null {
  const range = parseCidrExact(text);
  if (range === null) return null;
  const { network, prefix } = range;
  if (network.kind() === 'ipv6' && prefix >= 96 && (network as ipaddr.IPv6).isIPv4MappedAddress()) {
    return { network: (network as ipaddr.IPv6).toIPv4Address(), prefix: prefix - 96 };
  }
  return range;
}

export function isCidr(text: string): boolean {
  return parseCidr(text) !== null;
}

export function rangeContains(range: CidrRange, address: IpAddress): boolean {
  return address.kind() === range.network.kind() && address.match(range.network, range.prefix);
}

/** Whether every address of `inner` lies inside `outer` (for narrowing a tenant choice to a ceiling). */
export function cidrWithin(inner: Cidr, outer: Cidr): boolean {
  const a = parseCidr(inner);
  const b = parseCidr(outer);
  if (a === null || b === null) return false;
  return a.prefix >= b.prefix && rangeContains(b, a.network);
}

/** For fixed tables written in code, taken literally (carrier ranges stay IPv6): a typo is a bug. */
export function cidrConstant(text: string): CidrRange {
  const range = parseCidrExact(text);
  if (range === null) throw new Error(`egress: invalid built-in CIDR ${text}`);
  return range;
}
