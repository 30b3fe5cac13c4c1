// The verdict on one resolved (or literal) address. An address is judged as itself and, when it is an IPv6
// form that delivers to IPv4, as the IPv4 address it carries; any refusal among those views refuses it.
import { rangeContains, type CidrRange, type IpAddress } from './cidr.js';
import type { CompiledEgressPolicy } from './compiled-policy.js';
import type { AdmissionRefusalReason } from './egress-policy.js';
import { unwrapIpv4 } from './embedded-ipv4.js';
import { isMetadataAddress } from './metadata-destinations.js';
import { specialRangeClass, type RangeClass } from './special-ranges.js';

export type DestinationRefusal = Extract<
  AdmissionRefusalReason,
  | 'metadata_destination'
  | 'operator_denied'
  | 'loopback_destination'
  | 'reserved_destination'
  | 'private_destination'
>;

export type AddressVerdict =
  | { readonly ok: true; readonly loopback: boolean }
  | { readonly ok: false; readonly reason: DestinationRefusal };

// When several addresses (or views of one) are refused, the most specific cause is the one reported.
const SEVERITY: readonly DestinationRefusal[] = [
  'metadata_destination',
  'operator_denied',
  'loopback_destination',
  'reserved_destination',
  'private_destination',
];

export function mostSevere(reasons: readonly DestinationRefusal[]): DestinationRefusal | null {
  return SEVERITY.find((reason) => reasons.includes(reason)) ?? null;
}

interface View {
  readonly address: IpAddress;
  readonly rangeClass: RangeClass | null;
}

function viewsOf(address: IpAddress): View[] {
  const unwrapped = unwrapIpv4(address);
  if (unwrapped === null) return [{ address, rangeClass: specialRangeClass(address) }];
  return [
    { address, rangeClass: unwrapped.carrierClass },
    { address: unwrapped.carried, rangeClass: specialRangeClass(unwrapped.carried) },
  ];
}

const inAny = (ranges: readonly CidrRange[], address: IpAddress): boolean =>
  ranges.some((range) => rangeContains(range, address));

function judgeView(view: View, policy: CompiledEgressPolicy): DestinationRefusal | null {
  if (isMetadataAddress(view.address)) return 'metadata_destination';
  if (inAny(policy.deniedRanges, view.address)) return 'operator_denied';
  switch (view.rangeClass) {
    case 'loopback':
      return policy.allowInsecureLoopback ? null : 'loopback_destination';
    case 'reserved':
      return 'reserved_destination';
    case 'private':
      // Both must hold: the operator's ceiling and the tenant's own choice.
      return inAny(policy.operatorAllowedPrivate, view.address) &&
        inAny(policy.tenantOptedInPrivate, view.address)
        ? null
        : 'private_destination';
    case null:
      return null;
  }
}

export function judgeAddress(address: IpAddress, policy: CompiledEgressPolicy): AddressVerdict {
  const views = viewsOf(address);
  const refusals = views
    .map((view) => judgeView(view, policy))
    .filter((r): r is DestinationRefusal => r !== null);
  const reason = mostSevere(refusals);
  if (reason !== null) return { ok: false, reason };
  return { ok: true, loopback: views.some((view) => view.rangeClass === 'loopback') };
}
