import { METADATA_CIDRS, cidrWithin } from '@gatehouse/egress';

/**
 * Whether a range contains (or is) a cloud metadata address (the same table libs/egress refuses at connect
 * time): a tenant may never opt such a range in, whatever the operator allows, so it is refused at write time.
 */
export function containsMetadataAddress(cidr: string): boolean {
  return METADATA_CIDRS.some((metadata) => cidrWithin(metadata, cidr));
}
