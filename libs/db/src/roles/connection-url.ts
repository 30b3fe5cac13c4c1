export interface ConnectionUrlParts {
  database?: string;
  user?: string;
  /** Replaces the password; an empty string or undefined (with `user`) removes it. */
  password?: string;
}

/**
 * Derives a connection URL from another one (same host, port and query), swapping the database and/or the
 * credentials. Works for `postgres://` and `postgresql://` URLs with a host.
 */
export function deriveConnectionUrl(base: string, parts: ConnectionUrlParts): string {
  const url = new URL(base);
  if (parts.database !== undefined) url.pathname = `/${encodeURIComponent(parts.database)}`;
  if (parts.user !== undefined) {
    url.username = encodeURIComponent(parts.user);
    url.password = parts.password ? encodeURIComponent(parts.password) : '';
  }
  return url.toString();
}

/** The database a URL points at (its path), or undefined. */
export function databaseNameOf(connectionUrl: string): string | undefined {
  const name = decodeURIComponent(new URL(connectionUrl).pathname.replace(/^\//, ''));
  return name === '' ? undefined : name;
}
