/**
 * Where a secret points, when the secret is a connection string: a URL (`postgres://u:p@db.internal:5432/app`)
 * or a bare `host:port` (`[userinfo@]host:port[/...]`). The fingerprint counts it (docs/security-identity.md,
 * "Secrets that point somewhere"): rotating the credential keeps the fingerprint, moving it to another host
 * does not. Only the scheme, the host and the port are returned (with the query parameters that drivers read a
 * host or port from: `host`, `hostaddr`, `port`); the userinfo, path, the rest of the query and the fragment are
 * never part of it (they hold passwords, webhook tokens and `?api_key=` parameters).
 *
 * Read the way URL parsers read an authority (RFC 3986): it ends at the first `/`, `?` or `#`; the userinfo
 * ends at its last `@`. Scheme and host are lowercased; a port loses its leading zeros; http(s) and ws(s)
 * without a port get their default one. Two spellings of one destination may differ (a re-review, the safe
 * side); two different destinations never read alike. Linear in the text: plain scans, no regular expressions
 * that backtrack.
 */
export interface SecretOrigin {
  /** Lowercase; null for a bare `host:port`. */
  readonly scheme: string | null;
  /**
   * Lowercase, as written (IPv6 with its brackets, a driver's `h1:1,h2:2` host list whole); may be empty.
   * Followed by the query's destination parameters when it has any (`db?host=other&port=6432`).
   */
  readonly host: string;
  /** Digits without leading zeros; null when the URL has none and its scheme has no default. */
  readonly port: string | null;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443', ws: '80', wss: '443' };

function isAlpha(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i += 1) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}
function withoutLeadingZeros(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i += 1;
  return digits.slice(i);
}
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/**
 * The scheme's length when the text starts with `scheme://`, else -1. A driver prefix is part of the scheme
 * (`jdbc:postgresql://`, `jdbc:mysql:loadbalance://`): each `:` followed by a letter continues it.
 */
function schemeLength(text: string): number {
  if (text.length === 0 || !isAlpha(text.charCodeAt(0))) return -1;
  let i = 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isAlpha(code) || isDigit(code) || code === 43 || code === 45 || code === 46) i += 1;
    else if (code === 58 && i + 1 < text.length && isAlpha(text.charCodeAt(i + 1))) i += 2;
    else break;
  }
  return text.startsWith('://', i) ? i : -1;
}

/** Query parameters drivers read a destination from (libpq, node-postgres: they override the authority). */
const DESTINATION_PARAMETERS: ReadonlySet<string> = new Set(['host', 'hostaddr', 'port']);

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `?host=…&port=…`: the query's destination parameters, lowercased, in their order; '' when it has none. */
function destinationParameters(query: string): string {
  let out = '';
  for (const parameter of query.split('&')) {
    const equals = parameter.indexOf('=');
    const name = decoded(equals < 0 ? parameter : parameter.slice(0, equals)).toLowerCase();
    if (!DESTINATION_PARAMETERS.has(name)) continue;
    const value = equals < 0 ? '' : decoded(parameter.slice(equals + 1)).toLowerCase();
    out += `${out === '' ? '?' : '&'}${name}=${value}`;
  }
  return out;
}

/** `host[:port]` of an authority without its userinfo: an IPv6 literal keeps its brackets. */
function splitHostPort(hostPort: string): { host: string; port: string | null } | null {
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) return null;
    const rest = hostPort.slice(close + 1);
    if (rest === '') return { host: hostPort.slice(0, close + 1), port: null };
    if (!rest.startsWith(':')) return null;
    const port = rest.slice(1);
    if (port === '') return { host: hostPort.slice(0, close + 1), port: null };
    return isDigits(port) ? { host: hostPort.slice(0, close + 1), port } : null;
  }
  // A driver's host list (`h1:1,h2:2`) is one destination text: kept whole.
  if (hostPort.includes(',')) return { host: hostPort, port: null };
  const colon = hostPort.lastIndexOf(':');
  if (colon < 0) return { host: hostPort, port: null };
  const port = hostPort.slice(colon + 1);
  if (port === '') return { host: hostPort.slice(0, colon), port: null };
  return isDigits(port) ? { host: hostPort.slice(0, colon), port } : null;
}

function isHostName(host: string): boolean {
  if (host.length === 0) return false;
  let alnum = false;
  for (let i = 0; i < host.length; i += 1) {
    const code = host.charCodeAt(i);
    if (isAlpha(code) || isDigit(code)) alnum = true;
    else if (code !== 45 && code !== 46 && code !== 95) return false;
  }
  return alnum;
}

function fromUrl(text: string, schemeEnd: number): SecretOrigin | null {
  const scheme = text.slice(0, schemeEnd).toLowerCase();
  const start = schemeEnd + 3;
  let end = text.length;
  for (let i = start; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 47 || code === 63 || code === 35) {
      end = i;
      break;
    }
  }
  const authority = text.slice(start, end);
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  let parameters = '';
  const queryStart = text.indexOf('?', end);
  const fragment = text.indexOf('#', end);
  if (queryStart >= 0 && (fragment < 0 || queryStart < fragment)) {
    parameters = destinationParameters(text.slice(queryStart + 1, fragment < 0 ? text.length : fragment));
  }
  const split = splitHostPort(hostPort);
  if (split === null) {
    // Not host[:port]: the whole host text counts (lowercased), so a change of it is still seen.
    return { scheme, host: `${hostPort.toLowerCase()}${parameters}`, port: null };
  }
  const port = split.port === null ? (DEFAULT_PORTS[scheme] ?? null) : withoutLeadingZeros(split.port);
  return { scheme, host: `${split.host.toLowerCase()}${parameters}`, port };
}

/** `[userinfo@]host:port[/...]` without a scheme; anything else (a token, `user:password`) is no destination. */
function fromHostPort(text: string): SecretOrigin | null {
  const slash = text.indexOf('/');
  const head = slash < 0 ? text : text.slice(0, slash);
  if (head.includes('?') || head.includes('#')) return null;
  const hostPort = head.slice(head.lastIndexOf('@') + 1);
  const split = splitHostPort(hostPort);
  if (split === null || split.port === null || split.port.length > 5 || hostPort.includes(',')) return null;
  const bracketed = split.host.startsWith('[');
  if (!bracketed && !isHostName(split.host)) return null;
  return { scheme: null, host: split.host.toLowerCase(), port: withoutLeadingZeros(split.port) };
}

/** The destination a secret value names, or null when it names none. */
export function secretOriginOf(value: string): SecretOrigin | null {
  let start = 0;
  let end = value.length;
  while (start < end && isSpace(value.charCodeAt(start))) start += 1;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end -= 1;
  const text = start === 0 && end === value.length ? value : value.slice(start, end);
  if (text.length === 0) return null;
  const schemeEnd = schemeLength(text);
  return schemeEnd > 0 ? fromUrl(text, schemeEnd) : fromHostPort(text);
}
