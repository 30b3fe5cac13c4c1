import { cidrWithin } from '@gatehouse/egress';

// Cloud instance-metadata addresses (the same table libs/egress refuses at connect time): a tenant may never opt
// a range that contains one of them, whatever the operator allows, so the refusal is explicit at write time.
const METADATA_CIDRS = [
  '169.254.169.254/32',
  '169.254.170.2/32',
  '169.254.170.23/32',
  '100.100.100.200/32',
  '192.0.0.192/32',
  '168.63.129.16/32',
  'fd00:ec2::254/128',
  'fd00:ec2::23/128',
  'fd20:ce::254/128',
];

/** Whether a range contains (or is) a metadata address. */
export function containsMetadataAddress(cidr: string): boolean {
  return METADATA_CIDRS.some((metadata) => cidrWithin(metadata, cidr));
}
