import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The key the login throttle counts a client address under. An IPv4 address is its own key. An IPv6 address
 * is keyed by its /64: that is the smallest block a site or a single customer is given, so one attacker
 * typically holds 2^64 addresses and could otherwise spend a fresh throttle budget on each. IPv4-mapped IPv6
 * (`::ffff:1.2.3.4`) is the IPv4 address it carries. Text that is not an address (a socket with no peer) is
 * used as it is; it cannot be chosen by a client, so it cannot be varied to dodge the count.
 */
export function throttleAddressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  let parsed: ipaddr.IPv6;
  try {
    parsed = ipaddr.IPv6.parse(address);
  } catch {
    return address;
  }
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  const network = new ipaddr.IPv6([...parsed.parts.slice(0, 4), 0, 0, 0, 0]);
  return `${network.toRFC5952String()}/64`;
}
