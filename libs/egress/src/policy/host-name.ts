// Host spellings reduced to one form before any rule looks at them. WHATWG URL parsing already turns every
// numeric IPv4 spelling (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`, percent-encoded or full-width digits)
// into dotted-quad and drops one trailing dot; it keeps `127.0.0.1..` as a *name*, which a resolver might
// still read as an address. So trailing dots are stripped and the rest is parsed by WHATWG again.
import { parseAddress, type IpAddress } from './cidr.js';

export type ParsedHost =
  { readonly kind: 'ip'; readonly address: IpAddress } | { readonly kind: 'name'; readonly name: string };

function reparseHostname(text: string): string | null {
  try {
    return new URL(`https://${text}/`).hostname;
  } catch {
    return null;
  }
}

/** `hostname` as `URL#hostname` gives it (IPv6 in brackets). Null when nothing usable is left. */
export function parseHost(hostname: string): ParsedHost | null {
  if (hostname.startsWith('[')) {
    if (!hostname.endsWith(']')) return null;
    const address = parseAddress(hostname.slice(1, -1));
    return address === null ? null : { kind: 'ip', address };
  }
  const stripped = hostname.replace(/\.+$/, '');
  if (stripped === '') return null;
  const reparsed = reparseHostname(stripped);
  if (reparsed === null || reparsed === '') return null;
  const address = parseAddress(reparsed);
  if (address !== null) return { kind: 'ip', address };
  return { kind: 'name', name: reparsed };
}

/** A host name in the form rules compare (lower case, punycode, no trailing dot); null for an address. */
export function normalizeHostname(text: string): string | null {
  const parsed = parseHost(text.trim());
  return parsed?.kind === 'name' ? parsed.name : null;
}

/** RFC 6761: `localhost` and every name under it mean this host, whatever a resolver says. */
export function isLocalhostName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}
