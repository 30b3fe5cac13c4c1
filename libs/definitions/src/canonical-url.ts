import type { MaterializedText } from './variable-materializer';

/** The parts of an HTTP URL that identify a server: scheme, host, port (always explicit), path. */
export interface CanonicalHttpUrl {
  readonly scheme: 'http' | 'https';
  /** Lowercase; IDNs as punycode; IPv6 in brackets. */
  readonly host: string;
  readonly port: number;
  /** WHATWG-normalized path (dot segments removed), never empty. May hold `<secret:NAME>` markers. */
  readonly path: string;
}

export type CanonicalUrlFailure = 'invalid_url' | 'url_not_http' | 'secret_in_url_authority';

export type CanonicalUrlResult =
  | { readonly ok: true; readonly canonical: CanonicalHttpUrl }
  | { readonly ok: false; readonly reason: CanonicalUrlFailure };

const DEFAULT_PORT = { http: 80, https: 443 } as const;

function fromParsed(url: URL): CanonicalUrlResult {
  const scheme = url.protocol === 'https:' ? 'https' : url.protocol === 'http:' ? 'http' : null;
  if (!scheme) return { ok: false, reason: 'url_not_http' };
  if (url.hostname === '') return { ok: false, reason: 'invalid_url' };
  const port = url.port === '' ? DEFAULT_PORT[scheme] : Number(url.port);
  return { ok: true, canonical: { scheme, host: url.hostname, port, path: url.pathname || '/' } };
}

function parse(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** Canonical scheme, host, port and path of a plain URL (no secret markers). Query, fragment, userinfo dropped. */
export function canonicalizeHttpUrl(text: string): CanonicalUrlResult {
  const url = parse(text);
  return url ? fromParsed(url) : { ok: false, reason: 'invalid_url' };
}

/** Serializes a canonical URL (`https://host:443/path`), markers included. */
export function formatCanonicalUrl(url: CanonicalHttpUrl): string {
  return `${url.scheme}://${url.host}:${url.port}${url.path}`;
}

const SENTINEL_BASE = 'ghsecret';

/**
 * The shortest `ghsecret` + `x`* that `visible` does not contain, in one pass: the base has no self-overlap, so
 * its occurrences are disjoint, and `ghsecret` + k `x` occurs only where an occurrence is followed by k or more
 * `x`; one more than the longest such run never occurs. (Lengthening the base and searching again, once per `x`,
 * was quadratic in a URL that spells the sentinel.)
 */
function sentinelBaseFor(visible: string): string {
  let longest = -1;
  for (let hit = visible.indexOf(SENTINEL_BASE); hit >= 0;) {
    let end = hit + SENTINEL_BASE.length;
    while (visible.charCodeAt(end) === 120 /* x */) end += 1;
    longest = Math.max(longest, end - hit - SENTINEL_BASE.length);
    hit = visible.indexOf(SENTINEL_BASE, end);
  }
  return SENTINEL_BASE + 'x'.repeat(longest + 1);
}

/**
 * Canonicalizes a definition's materialized URL for the security identity, with each secret stretch as a
 * `<secret:NAME>` marker instead of its value, so rotating a credential in the path keeps the identity.
 *
 * How: the real URL must parse as http(s). Then, if secrets are present, the URL is parsed again with each secret
 * stretch replaced by a sentinel (`ghsecret<k>z`, lowercase letters and digits, which URL parsing keeps verbatim;
 * the base is lengthened until the rest of the URL does not contain it, and it has no self-overlap, so every
 * occurrence after parsing is one of ours). A sentinel in the scheme, host or port is refused: where a server
 * connects must never hang on a value that "rotating a credential" could change. In the path, sentinels become
 * `<secret:NAME>`; `<` and `>` never appear raw in a parsed path or host, so a marker cannot be spelled by
 * literal text.
 */
export function canonicalDefinitionUrl(url: MaterializedText): CanonicalUrlResult {
  const real = parse(url.value);
  if (!real) return { ok: false, reason: 'invalid_url' };
  const plain = fromParsed(real);
  if (!plain.ok) return plain;
  const secrets = url.stretches.filter((s) => s.secret);
  if (secrets.length === 0) return plain;

  let visible = '';
  let at = 0;
  for (const stretch of secrets) {
    visible += url.value.slice(at, stretch.start);
    at = stretch.end;
  }
  visible = (visible + url.value.slice(at)).toLowerCase();
  const base = sentinelBaseFor(visible);

  let withSentinels = '';
  at = 0;
  secrets.forEach((stretch, k) => {
    withSentinels += `${url.value.slice(at, stretch.start)}${base}${k}z`;
    at = stretch.end;
  });
  withSentinels += url.value.slice(at);

  const parsed = parse(withSentinels);
  if (!parsed) return { ok: false, reason: 'secret_in_url_authority' };
  if (parsed.protocol !== real.protocol || parsed.hostname.includes(base) || parsed.port.includes(base)) {
    return { ok: false, reason: 'secret_in_url_authority' };
  }
  const shape = fromParsed(parsed);
  if (!shape.ok) return shape;
  // A secret value holding `@` or `/` can move the real authority (`user:${PASS}@host` with PASS = `x@other/`):
  // the host and port the identity names must be the ones the real URL connects to.
  if (shape.canonical.host !== plain.canonical.host || shape.canonical.port !== plain.canonical.port) {
    return { ok: false, reason: 'secret_in_url_authority' };
  }
  let path = '';
  let from = 0;
  for (
    let hit = shape.canonical.path.indexOf(base);
    hit >= 0;
    hit = shape.canonical.path.indexOf(base, from)
  ) {
    let end = hit + base.length;
    while (end < shape.canonical.path.length && /[0-9]/.test(shape.canonical.path[end] as string)) end += 1;
    const k = Number(shape.canonical.path.slice(hit + base.length, end));
    const stretch = secrets[k];
    // The sentinel ends with `z`; anything else means the text was not ours after all (cannot happen, see above).
    if (!stretch || shape.canonical.path[end] !== 'z')
      return { ok: false, reason: 'secret_in_url_authority' };
    path += `${shape.canonical.path.slice(from, hit)}<secret:${stretch.variable}>`;
    from = end + 1;
  }
  path += shape.canonical.path.slice(from);
  return { ok: true, canonical: { ...shape.canonical, path } };
}
