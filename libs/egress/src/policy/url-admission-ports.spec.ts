import { recordingResolver } from '../test-support/recording-resolver';
import type { EgressPolicy } from './egress-policy';
import { admitUrl } from './url-admission.policy';

// A port outside 1-65535 is never admitted, and no lookup is made for it.

const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

const strict: EgressPolicy = {
  allowInsecureLoopback: false,
  operatorDenylist: { cidrs: [], hostnames: [] },
  operatorAllowedPrivateRanges: [],
  tenantOptedInPrivateRanges: [],
};
const devLoopback: EgressPolicy = { ...strict, allowInsecureLoopback: true };

const names = { 'public.example': [PUBLIC_V4], 'loop.example': ['127.0.0.1'] };

describe('admitUrl: ports', () => {
  it.each([
    ['https://public.example:0/', strict, 'https://public.example:0'],
    ['https://public.example:00000/mcp', strict, 'https://public.example:0'],
    ['HTTPS://PUBLIC.EXAMPLE:0', strict, 'https://public.example:0'],
    [`https://${PUBLIC_V4}:0/`, strict, `https://${PUBLIC_V4}:0`],
    [`https://[${PUBLIC_V6}]:0/`, strict, `https://[${PUBLIC_V6}]:0`],
    ['http://loop.example:0/', devLoopback, 'http://loop.example:0'],
    ['http://127.0.0.1:0/', devLoopback, 'http://127.0.0.1:0'],
    ['http://localhost:0/', devLoopback, 'http://localhost:0'],
  ])('refuses %s as invalid_port without asking the resolver', async (url, policy, origin) => {
    const resolver = recordingResolver(names);
    expect(await admitUrl(url, policy, resolver)).toEqual({ ok: false, reason: 'invalid_port', origin });
    expect(resolver.asked).toEqual([]);
  });

  it.each([
    'https://public.example:65536/',
    'https://public.example:99999/',
    'https://public.example:4294967296/',
    'https://public.example:-1/',
    'https://public.example:1e3/',
    'https://public.example:0x50/',
    'https://public.example: 443/',
  ])('refuses %s, which no URL parser reads as a port, as invalid_url without a lookup', async (url) => {
    const resolver = recordingResolver(names);
    expect(await admitUrl(url, strict, resolver)).toEqual({ ok: false, reason: 'invalid_url', origin: null });
    expect(resolver.asked).toEqual([]);
  });

  it.each([
    ['https://public.example:1/', 'https://public.example:1'],
    ['https://public.example:65535/', 'https://public.example:65535'],
    ['https://public.example:0443/', 'https://public.example:443'],
    ['https://public.example/', 'https://public.example:443'],
    ['https://public.example:443/', 'https://public.example:443'],
  ])('admits the edges of the range: %s (origin %s)', async (url, origin) => {
    expect(await admitUrl(url, strict, recordingResolver(names))).toEqual({
      ok: true,
      origin,
      addresses: [PUBLIC_V4],
    });
  });

  it('reports the scheme before the port, and the port before any destination rule', async () => {
    const resolver = recordingResolver(names);
    expect(await admitUrl('ftp://public.example:0/', strict, resolver)).toMatchObject({
      reason: 'unsupported_scheme',
    });
    // Not `insecure_scheme` or `loopback_destination`: nothing about the destination is judged for port 0.
    expect(await admitUrl('http://127.0.0.1:0/', strict, resolver)).toMatchObject({ reason: 'invalid_port' });
    expect(await admitUrl('https://169.254.169.254:0/', strict, resolver)).toMatchObject({
      reason: 'invalid_port',
    });
    expect(resolver.asked).toEqual([]);
  });
});
