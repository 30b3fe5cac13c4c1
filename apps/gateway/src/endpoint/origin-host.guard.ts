// DNS-rebinding protection for the workspace endpoint (MCP Streamable HTTP security warning): the Host header
// must name the gateway as the operator declared it, and an Origin header, when a browser sends one, must be one
// of the gateway's own hosts or an origin the operator listed. A request without Origin (CLI and SDK clients)
// passes that half. Pure: the endpoint refuses with 403 before anything else runs.

export type OriginHostCheck =
  { readonly ok: true } | { readonly ok: false; readonly reason: 'host_not_allowed' | 'origin_not_allowed' };

export interface OriginHostPolicy {
  /** `host` (any port) or `host:port`, lowercase. */
  readonly allowedHosts: readonly string[];
  /** Exact origins (`https://app.example.com`), lowercase. */
  readonly allowedOrigins: readonly string[];
}

/** `host` and `port` of a Host header value (`[::1]:4200`, `example.com`), or null when it is not one. */
function splitHost(value: string): { host: string; port: string | null } | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value.toLowerCase());
  if (match === null || match[1] === undefined) return null;
  return { host: match[1], port: match[2] ?? null };
}

function hostAllowed(value: string, allowed: readonly string[]): boolean {
  const given = splitHost(value);
  if (given === null) return false;
  return allowed.some((entry) => {
    const rule = splitHost(entry);
    if (rule === null || rule.host !== given.host) return false;
    return rule.port === null || rule.port === given.port;
  });
}

export function checkOriginAndHost(
  headers: { readonly host?: string | undefined; readonly origin?: string | undefined },
  policy: OriginHostPolicy,
): OriginHostCheck {
  if (headers.host === undefined || !hostAllowed(headers.host, policy.allowedHosts))
    return { ok: false, reason: 'host_not_allowed' };
  const origin = headers.origin;
  if (origin === undefined) return { ok: true };
  const lowered = origin.toLowerCase();
  if (policy.allowedOrigins.includes(lowered)) return { ok: true };
  let parsed: URL;
  try {
    parsed = new URL(lowered);
  } catch {
    return { ok: false, reason: 'origin_not_allowed' };
  }
  if (parsed.origin !== lowered || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    return { ok: false, reason: 'origin_not_allowed' };
  return hostAllowed(parsed.host, policy.allowedHosts)
    ? { ok: true }
    : { ok: false, reason: 'origin_not_allowed' };
}
