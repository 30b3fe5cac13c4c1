// The `lookup` the socket uses instead of DNS: it answers only for the admitted host and only with the
// addresses admission checked, so the connection goes to the very address that was checked and a name that
// rebinds between check and connect gains nothing. Node calls it with `all: true` when it races address
// families (autoSelectFamily) and without it otherwise; both are answered.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

function comparable(hostname: string): string {
  return hostname.toLowerCase().replace(/\.+$/, '');
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`pinned lookup has no admitted address for ${hostname}`);
  error.code = 'ENOTFOUND';
  return error;
}

function wantedFamily(options: LookupOptions): 4 | 6 | null {
  const family = options.family;
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return null;
}

export function createPinnedLookup(hostname: string, addresses: readonly string[]): LookupFunction {
  const expected = comparable(hostname);
  const entries: LookupAddress[] = addresses.map((address) => {
    const family = isIP(address);
    if (family === 0) throw new Error('pinned lookup: admitted address is not an IP address');
    return { address, family };
  });
  return (requested, options, callback) => {
    const family = wantedFamily(options);
    const matching = entries.filter((entry) => family === null || entry.family === family);
    const first = matching[0];
    if (comparable(requested) !== expected || first === undefined) {
      callback(notFound(requested), '', 0);
      return;
    }
    if (options.all === true) callback(null, matching);
    else callback(null, first.address, first.family);
  };
}
