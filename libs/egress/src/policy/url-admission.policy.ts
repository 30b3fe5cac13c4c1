// The one URL admission policy, run before any connection attempt anywhere in Gatehouse. Pure apart from the
// injected resolver. The order matters only for which reason is reported; every path to `ok: true` passes
// every rule. Refusals carry the origin only: never path, query, userinfo or the addresses a name resolved to
// (those would let a tenant map the operator's internal DNS). Whatever the resolver does, admission answers
// with a result, and within its deadline.
import type { Resolver } from '../resolver/resolver.port.js';
import { judgeAddress, mostSevere, type DestinationRefusal } from './address-judgement.js';
import { resolveWithin } from './bounded-resolution.js';
import { formatAddress, parseAddress, type IpAddress } from './cidr.js';
import { compileEgressPolicy, isDeniedHostname } from './compiled-policy.js';
import type { AdmissionRefusalReason, AdmissionResult, EgressPolicy } from './egress-policy.js';
import { isLocalhostName, parseHost } from './host-name.js';
import { isMetadataHostname } from './metadata-destinations.js';
import { isConnectablePort, portOf } from './port-range.js';

export interface AdmitUrlOptions {
  /**
   * Bound on the whole admission, in milliseconds (in practice on the lookup, its only wait); past it the name
   * is `unresolvable`. A positive integer of at most MAX_ADMISSION_DEADLINE_MS.
   */
  readonly deadlineMs?: number;
}

/** Above createDnsResolver's own default bound (5 s), so that resolver normally answers first. */
export const DEFAULT_ADMISSION_DEADLINE_MS = 10_000;
/** The longest a Node timer can wait. */
export const MAX_ADMISSION_DEADLINE_MS = 2 ** 31 - 1;

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'https:': '443', 'http:': '80' };

function refuse(reason: AdmissionRefusalReason, origin: string | null): AdmissionResult {
  return { ok: false, reason, origin };
}

function originOf(url: URL, host: string): string {
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : url.port;
  return port === undefined ? `${url.protocol}//${host}` : `${url.protocol}//${host}:${port}`;
}

function hostOfAddress(address: IpAddress): string {
  return address.kind() === 'ipv6' ? `[${formatAddress(address)}]` : formatAddress(address);
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function deadlineOf(options: AdmitUrlOptions): number {
  const deadlineMs = options.deadlineMs ?? DEFAULT_ADMISSION_DEADLINE_MS;
  if (!Number.isSafeInteger(deadlineMs) || deadlineMs <= 0 || deadlineMs > MAX_ADMISSION_DEADLINE_MS)
    throw new Error(
      `admitUrl: deadlineMs must be a positive integer of at most ${MAX_ADMISSION_DEADLINE_MS}`,
    );
  return deadlineMs;
}

async function addressesOf(
  name: string,
  resolver: Resolver,
  deadlineMs: number,
): Promise<IpAddress[] | null> {
  const answer = await resolveWithin(resolver, name, deadlineMs);
  if (answer === null) return null;
  const parsed = answer.map(parseAddress);
  // One answer we cannot read exactly is one we cannot check: refuse the whole name.
  if (parsed.some((address) => address === null)) return null;
  return parsed as IpAddress[];
}

export async function admitUrl(
  url: string,
  policy: EgressPolicy,
  resolver: Resolver,
  options: AdmitUrlOptions = {},
): Promise<AdmissionResult> {
  const deadlineMs = deadlineOf(options);
  const compiled = compileEgressPolicy(policy);
  const parsed = parseUrl(url);
  if (parsed === null) return refuse('invalid_url', null);

  const scheme = parsed.protocol;
  if (scheme !== 'https:' && scheme !== 'http:') {
    return refuse('unsupported_scheme', originOf(parsed, parsed.hostname));
  }
  const host = parseHost(parsed.hostname);
  if (host === null) return refuse('invalid_url', null);
  const origin = originOf(parsed, host.kind === 'name' ? host.name : hostOfAddress(host.address));
  // Port 0 parses; nothing is judged (or looked up) for a destination no connection may be made to.
  if (!isConnectablePort(portOf(parsed))) return refuse('invalid_port', origin);
  if (parsed.username !== '' || parsed.password !== '') return refuse('credentials_in_url', origin);

  if (host.kind === 'name') {
    if (isMetadataHostname(host.name)) return refuse('metadata_destination', origin);
    if (isDeniedHostname(compiled, host.name)) return refuse('operator_denied', origin);
    if (isLocalhostName(host.name) && !compiled.allowInsecureLoopback)
      return refuse('loopback_destination', origin);
  }
  // http is only ever for loopback in development; without that switch no lookup is even made.
  if (scheme === 'http:' && !compiled.allowInsecureLoopback) return refuse('insecure_scheme', origin);

  const addresses = host.kind === 'ip' ? [host.address] : await addressesOf(host.name, resolver, deadlineMs);
  if (addresses === null) return refuse('unresolvable', origin);

  const verdicts = addresses.map((address) => judgeAddress(address, compiled));
  const refusals: DestinationRefusal[] = [];
  for (const verdict of verdicts) if (!verdict.ok) refusals.push(verdict.reason);
  const refusal = mostSevere(refusals);
  if (refusal !== null) return refuse(refusal, origin);
  if (scheme === 'http:' && !verdicts.every((verdict) => verdict.ok && verdict.loopback)) {
    return refuse('insecure_scheme', origin);
  }
  return { ok: true, origin, addresses: [...new Set(addresses.map(formatAddress))] };
}
