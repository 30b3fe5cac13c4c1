// Which ports a URL may name. The WHATWG parser already refuses anything past 65535 (and signs, exponents, hex),
// but it reads `:0` as port 0, which no server listens on and which a socket must never be asked to reach.
const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'https:': 443, 'http:': 80 };

export const MIN_PORT = 1;
export const MAX_PORT = 65_535;

/** The port a connection to `url` goes to: the explicit one, else the scheme's default; null when neither. */
export function portOf(url: URL): number | null {
  if (url.port === '') return DEFAULT_PORTS[url.protocol] ?? null;
  return /^\d+$/.test(url.port) ? Number(url.port) : null;
}

/** True for a port in 1-65535, the only ones admission admits and the fetch connects to. */
export function isConnectablePort(port: number | null): port is number {
  return port !== null && Number.isSafeInteger(port) && port >= MIN_PORT && port <= MAX_PORT;
}
