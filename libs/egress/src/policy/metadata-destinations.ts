// Cloud instance-metadata endpoints hand out the host's own credentials: never a destination, whatever the
// operator or tenant allowed. Addresses are matched after IPv4 is unwrapped from IPv6 (embedded-ipv4.ts).
import { cidrConstant, rangeContains, type IpAddress } from './cidr.js';

/** The metadata ranges as CIDR text, for config and policy checks outside this lib. */
export const METADATA_CIDRS: readonly string[] = Object.freeze([
  '169.254.169.254/32', // AWS, GCP, Azure, OCI, DigitalOcean, Hetzner, OpenStack, ...
  '169.254.170.2/32', // AWS ECS task metadata and credentials
  '169.254.170.23/32', // AWS EKS Pod Identity agent
  '100.100.100.200/32', // Alibaba Cloud
  '192.0.0.192/32', // Oracle Cloud (legacy)
  '168.63.129.16/32', // Azure WireServer (a public-looking address)
  'fd00:ec2::254/128', // AWS IMDS over IPv6
  'fd00:ec2::23/128', // AWS EKS Pod Identity over IPv6
  'fd20:ce::254/128', // GCP metadata over IPv6
]);

const METADATA_ADDRESSES = METADATA_CIDRS.map(cidrConstant);

// Compared after lower-casing and stripping trailing dots. Multi-label names also cover their subdomains.
const METADATA_HOSTNAMES = [
  'metadata', // GCE resolves the single label through its search domain
  'metadata.google.internal',
  'metadata.goog',
  'instance-data', // AWS
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
  'metadata.packet.net',
];

export function isMetadataAddress(address: IpAddress): boolean {
  return METADATA_ADDRESSES.some((range) => rangeContains(range, address));
}

export function isMetadataHostname(normalizedHost: string): boolean {
  return METADATA_HOSTNAMES.some(
    (name) => normalizedHost === name || (name.includes('.') && normalizedHost.endsWith(`.${name}`)),
  );
}
