import { recordingResolver } from '../test-support/recording-resolver';
import type { AdmissionResult, EgressPolicy } from './egress-policy';
import { admitUrl } from './url-admission.policy';

const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

const strict: EgressPolicy = {
  allowInsecureLoopback: false,
  operatorDenylist: { cidrs: [], hostnames: [] },
  operatorAllowedPrivateRanges: [],
  tenantOptedInPrivateRanges: [],
};
const withPolicy = (overrides: Partial<EgressPolicy>): EgressPolicy => ({ ...strict, ...overrides });
const devLoopback = withPolicy({ allowInsecureLoopback: true });

const names = {
  'public.example': [PUBLIC_V4],
  'public6.example': [PUBLIC_V6],
  'dual.example': [PUBLIC_V4, PUBLIC_V6],
  'loop.example': ['127.0.0.1'],
  'loop6.example': ['::1'],
  'mixed-loop.example': [PUBLIC_V4, '127.0.0.1'],
  'mixed-private.example': [PUBLIC_V6, '10.0.0.5'],
  'private.example': ['192.168.0.5'],
  'cgnat.example': ['100.64.3.4'],
  'ula.example': ['fd12:3456::1'],
  'mapped-private.example': ['::ffff:10.1.2.3'],
  'imds.example': ['169.254.169.254'],
  'imds6.example': ['fd00:ec2::254'],
  'nat64-imds.example': [PUBLIC_V4, '64:ff9b::a9fe:a9fe'],
  'reserved.example': ['198.18.0.1'],
  'multicast.example': ['239.1.2.3'],
  'denied.example': ['10.20.30.40'],
  'empty.example': [],
  'garbage.example': ['not-an-address'],
  'octal-answer.example': ['010.0.0.1'],
  'short-answer.example': ['127.1'],
  localhost: ['127.0.0.1', '::1'],
  'app.localhost': ['127.0.0.1'],
  'lying-localhost.localhost': [PUBLIC_V4],
};

async function admit(url: string, policy: EgressPolicy = strict): Promise<AdmissionResult> {
  return admitUrl(url, policy, recordingResolver(names));
}

function expectRefused(result: AdmissionResult, reason: string): void {
  expect(result).toMatchObject({ ok: false, reason });
}

describe('admitUrl: schemes and URL shape', () => {
  it.each([
    'not a url',
    '',
    'https://',
    'https://[::1',
    'https://1.2.3.4.5/',
    'https://4294967296/',
    'https://08.0.0.1/',
    'https://exa mple/',
    'https://.../x',
  ])('refuses %j as invalid_url without echoing it', async (url) => {
    const result = await admit(url);
    expect(result).toEqual({ ok: false, reason: 'invalid_url', origin: null });
  });

  it.each([
    ['file:///etc/passwd', 'file://'],
    ['ftp://files.example/pub', 'ftp://files.example'],
    ['gopher://public.example/1', 'gopher://public.example'],
    ['ws://public.example/socket', 'ws://public.example'],
    ['wss://public.example/socket', 'wss://public.example'],
    ['javascript:alert(1)', 'javascript://'],
    ['data:text/plain,hello', 'data://'],
    ['HTTPS+unix://public.example/', 'https+unix://public.example'],
  ])('refuses %s as unsupported_scheme (origin %s)', async (url, origin) => {
    expect(await admit(url)).toEqual({ ok: false, reason: 'unsupported_scheme', origin });
  });

  it.each([
    'http://public.example/',
    'http://93.184.216.34/',
    'HTTP://public.example:8080/x',
    'http://127.0.0.1/',
    'http://[::1]/',
  ])('refuses %s as insecure_scheme without allowInsecureLoopback, before any lookup', async (url) => {
    const resolver = recordingResolver(names);
    expectRefused(await admitUrl(url, strict, resolver), 'insecure_scheme');
    expect(resolver.asked).toEqual([]);
  });

  it.each([
    'http://public.example/',
    'http://93.184.216.34/',
    'http://[2606:2800:220:1:248:1893:25c8:1946]/',
    'http://mixed-loop.example/',
  ])(
    'refuses %s as insecure_scheme even with allowInsecureLoopback: http is for loopback only',
    async (url) => {
      expectRefused(await admit(url, devLoopback), 'insecure_scheme');
    },
  );

  it.each([
    'https://user:secret@public.example/',
    'https://user@public.example/',
    'https://:secret@public.example/',
    'https://a%40b:c@public.example/',
  ])('refuses %s as credentials_in_url, naming the origin only', async (url) => {
    const result = await admit(url);
    expect(result).toEqual({ ok: false, reason: 'credentials_in_url', origin: 'https://public.example:443' });
  });
});

describe('admitUrl: loopback', () => {
  it.each([
    'https://127.0.0.1/',
    'https://127.0.0.2:8443/',
    'https://2130706433/',
    'https://0177.0.0.1/',
    'https://0x7f.1/',
    'https://0x7f000001/',
    'https://017700000001/',
    'https://127.1/',
    'https://127.0.1/',
    'https://127.0.0.1./',
    'https://127.0.0.1.../',
    'https://0x7f.1../',
    'https://%31%32%37.0.0.1/',
    'https://\uff11\uff12\uff17.0.0.1/',
    'https://[::1]/',
    'https://[0:0:0:0:0:0:0:1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[::127.0.0.1]/',
    'https://[::ffff:0:127.0.0.1]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[2002:7f00:1::]/',
    'https://localhost/',
    'https://LOCALHOST./',
    'https://app.localhost/',
    'https://lying-localhost.localhost/',
    'https://loop.example/',
    'https://loop6.example./',
    'https://mixed-loop.example/',
  ])('refuses %s as loopback_destination', async (url) => {
    expectRefused(await admit(url), 'loopback_destination');
  });

  it('does not ask the resolver about localhost names when loopback is not allowed', async () => {
    const resolver = recordingResolver(names);
    await admitUrl('https://localhost/', strict, resolver);
    expect(resolver.asked).toEqual([]);
  });

  it.each([
    ['https://127.0.0.1:8443/x', ['127.0.0.1']],
    ['http://127.0.0.1:3000/', ['127.0.0.1']],
    ['http://2130706433:3000/', ['127.0.0.1']],
    ['http://[::1]:3000/', ['::1']],
    ['http://[::ffff:127.0.0.1]:3000/', ['::ffff:7f00:1']],
    ['http://localhost:3000/', ['127.0.0.1', '::1']],
    ['http://loop.example/', ['127.0.0.1']],
  ])('admits %s under allowInsecureLoopback', async (url, addresses) => {
    expect(await admit(url, devLoopback)).toMatchObject({ ok: true, addresses });
  });

  it('judges the addresses of a localhost name even under allowInsecureLoopback', async () => {
    // https to a public address would pass, but http only reaches loopback.
    expectRefused(await admit('http://lying-localhost.localhost/', devLoopback), 'insecure_scheme');
  });

  it('cannot be opened by private ranges the operator allowed and the tenant opted into', async () => {
    const policy = withPolicy({
      operatorAllowedPrivateRanges: ['127.0.0.0/8', '::1/128'],
      tenantOptedInPrivateRanges: ['127.0.0.0/8', '::1/128'],
    });
    expectRefused(await admit('https://127.0.0.1/', policy), 'loopback_destination');
    expectRefused(await admit('https://[::1]/', policy), 'loopback_destination');
  });
});

describe('admitUrl: private and shared ranges', () => {
  it.each([
    'https://10.0.0.1/',
    'https://10.255.255.255/',
    'https://172.16.0.1/',
    'https://172.31.255.1/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://100.127.255.254/',
    'https://169.254.1.1/',
    'https://167772161/',
    'https://012.0.0.1/',
    'https://0xa.1/',
    'https://0xc0.0xa8.1.1/',
    'https://10.1/',
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    'https://[fe80::1]/',
    'https://[fec0::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:c0a8:101]/',
    'https://[::10.0.0.1]/',
    'https://[64:ff9b::10.0.0.1]/',
    'https://[64:ff9b:1::93.184.216.34]/',
    'https://[2002:c0a8:101::1]/',
    'https://private.example/',
    'https://cgnat.example/',
    'https://ula.example/',
    'https://mapped-private.example/',
    'https://mixed-private.example/',
  ])('refuses %s as private_destination', async (url) => {
    expectRefused(await admit(url), 'private_destination');
  });

  const tenOpen = withPolicy({
    operatorAllowedPrivateRanges: ['10.0.0.0/8'],
    tenantOptedInPrivateRanges: ['10.0.0.0/8'],
  });

  it('admits a private range only where the operator allows it AND the tenant opted in', async () => {
    const operatorOnly = withPolicy({ operatorAllowedPrivateRanges: ['10.0.0.0/8'] });
    const tenantOnly = withPolicy({ tenantOptedInPrivateRanges: ['10.0.0.0/8'] });
    expectRefused(await admit('https://10.1.2.3/', operatorOnly), 'private_destination');
    expectRefused(await admit('https://10.1.2.3/', tenantOnly), 'private_destination');
    expect(await admit('https://10.1.2.3/', tenOpen)).toEqual({
      ok: true,
      origin: 'https://10.1.2.3:443',
      addresses: ['10.1.2.3'],
    });
  });

  it('admits only the intersection of the operator range and the tenant range', async () => {
    const policy = withPolicy({
      operatorAllowedPrivateRanges: ['10.1.0.0/16'],
      tenantOptedInPrivateRanges: ['10.0.0.0/8'],
    });
    expect(await admit('https://10.1.9.9/', policy)).toMatchObject({ ok: true });
    expectRefused(await admit('https://10.2.9.9/', policy), 'private_destination');
  });

  it('judges IPv4 carried in IPv6 against IPv4 opt-ins, and mapped CIDRs like their IPv4 form', async () => {
    expect(await admit('https://[::ffff:10.1.2.3]/', tenOpen)).toMatchObject({
      ok: true,
      addresses: ['::ffff:a01:203'],
    });
    expect(await admit('https://mapped-private.example/', tenOpen)).toMatchObject({ ok: true });
    const mappedCidrs = withPolicy({
      operatorAllowedPrivateRanges: ['::ffff:10.0.0.0/104'],
      tenantOptedInPrivateRanges: ['10.0.0.0/8'],
    });
    expect(await admit('https://10.4.4.4/', mappedCidrs)).toMatchObject({ ok: true });
  });

  it('opens CGNAT, unique-local and link-local ranges the same way, and nothing else', async () => {
    const policy = withPolicy({
      operatorAllowedPrivateRanges: ['100.64.0.0/10', 'fd00::/8', '169.254.0.0/16'],
      tenantOptedInPrivateRanges: ['100.64.0.0/10', 'fd00::/8', '169.254.0.0/16'],
    });
    expect(await admit('https://cgnat.example/', policy)).toMatchObject({ ok: true });
    expect(await admit('https://ula.example/', policy)).toMatchObject({ ok: true });
    expect(await admit('https://169.254.10.10/', policy)).toMatchObject({ ok: true });
    expectRefused(await admit('https://private.example/', policy), 'private_destination');
  });
});

describe('admitUrl: reserved ranges', () => {
  it.each([
    'https://0.0.0.0/',
    'https://0/',
    'https://0.1.2.3/',
    'https://255.255.255.255/',
    'https://4294967295/',
    'https://224.0.0.1/',
    'https://239.255.255.250/',
    'https://240.0.0.1/',
    'https://192.0.0.8/',
    'https://192.0.2.1/',
    'https://192.88.99.1/',
    'https://198.18.0.1/',
    'https://198.19.255.1/',
    'https://198.51.100.2/',
    'https://203.0.113.3/',
    'https://[::]/',
    'https://[::ffff:0.0.0.0]/',
    'https://[ff02::1]/',
    'https://[2001:db8::1]/',
    'https://[3fff::1]/',
    'https://[2001:2::1]/',
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'https://[100::1]/',
    'https://[4000::1]/',
    'https://[::1:2:3:4:5]/',
    'https://reserved.example/',
    'https://multicast.example/',
  ])('refuses %s as reserved_destination', async (url) => {
    expectRefused(await admit(url), 'reserved_destination');
  });

  it('cannot be opened by operator and tenant opt-ins', async () => {
    const policy = withPolicy({
      operatorAllowedPrivateRanges: ['198.18.0.0/15', '0.0.0.0/8'],
      tenantOptedInPrivateRanges: ['198.18.0.0/15', '0.0.0.0/8'],
    });
    expectRefused(await admit('https://198.18.0.1/', policy), 'reserved_destination');
    expectRefused(await admit('https://0.0.0.0/', policy), 'reserved_destination');
  });
});

describe('admitUrl: cloud metadata', () => {
  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'http://169.254.169.254/latest/meta-data/',
    'https://2852039166/',
    'https://0xa9fea9fe/',
    'https://0251.0376.0251.0376/',
    'https://169.254.43518/',
    'https://0xa9.0xfe.0xa9.0xfe/',
    'https://169.254.169.254./',
    'https://[::ffff:169.254.169.254]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://[::169.254.169.254]/',
    'https://[64:ff9b::169.254.169.254]/',
    'https://[64:ff9b:1::a9fe:a9fe]/',
    'https://[2002:a9fe:a9fe::1]/',
    'https://[fd00:ec2::254]/',
    'https://[fd20:ce::254]/',
    'https://169.254.170.2/v2/credentials',
    'https://100.100.100.200/latest/meta-data/',
    'https://168.63.129.16/',
    'https://192.0.0.192/',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://METADATA.GOOGLE.INTERNAL./',
    'https://metadata.google.internal../',
    'https://metadata/',
    'https://metadata./',
    'https://metadata.goog/',
    'https://instance-data/',
    'https://instance-data.ec2.internal/',
    'https://imds.example/',
    'https://imds6.example/',
    'https://nat64-imds.example/',
  ])('refuses %s as metadata_destination', async (url) => {
    expectRefused(await admit(url, devLoopback), 'metadata_destination');
  });

  it('refuses metadata hostnames without asking the resolver', async () => {
    const resolver = recordingResolver(names);
    expectRefused(
      await admitUrl('https://metadata.google.internal/', strict, resolver),
      'metadata_destination',
    );
    expect(resolver.asked).toEqual([]);
  });

  it('is never opened, whatever the operator allows and the tenant opted into', async () => {
    const everything = withPolicy({
      allowInsecureLoopback: true,
      operatorAllowedPrivateRanges: ['0.0.0.0/0', '::/0'],
      tenantOptedInPrivateRanges: ['0.0.0.0/0', '::/0'],
    });
    for (const url of [
      'https://169.254.169.254/',
      'https://[fd00:ec2::254]/',
      'https://100.100.100.200/',
      'https://imds.example/',
    ]) {
      expectRefused(await admit(url, everything), 'metadata_destination');
    }
  });
});

describe('admitUrl: operator denylist', () => {
  const denying = withPolicy({
    operatorDenylist: {
      cidrs: ['93.184.216.0/24', '2606:2800::/32', '10.20.0.0/16'],
      hostnames: ['db.internal.example', '*.corp.example', 'Redis.Example.'],
    },
    operatorAllowedPrivateRanges: ['10.0.0.0/8'],
    tenantOptedInPrivateRanges: ['10.0.0.0/8'],
  });

  it.each([
    'https://93.184.216.34/',
    'https://1572395042/',
    'https://0x5d.0xb8.0xd8.0x22/',
    'https://[::ffff:93.184.216.34]/',
    'https://[64:ff9b::5db8:d822]/',
    'https://[2002:5db8:d822::]/',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/',
    'https://public.example/',
    'https://public6.example/',
    'https://dual.example/',
    'https://db.internal.example/',
    'https://DB.Internal.Example./',
    'https://a.corp.example/',
    'https://a.b.corp.example/',
    'https://redis.example/',
    'https://denied.example/',
    'https://10.20.30.40/',
  ])('refuses %s as operator_denied', async (url) => {
    expectRefused(await admit(url, denying), 'operator_denied');
  });

  it('wins over a private range the operator allowed and the tenant opted into', async () => {
    expect(await admit('https://10.30.0.1/', denying)).toMatchObject({ ok: true });
    expectRefused(await admit('https://10.20.0.1/', denying), 'operator_denied');
  });

  it('matches a wildcard below the suffix only, not the suffix itself', async () => {
    const resolver = recordingResolver({ 'corp.example': [PUBLIC_V6.replace('2606', '2a00')] });
    expect(await admitUrl('https://corp.example/', denying, resolver)).toMatchObject({ ok: true });
  });

  it('refuses denied host names without asking the resolver', async () => {
    const resolver = recordingResolver(names);
    await admitUrl('https://x.corp.example/', denying, resolver);
    expect(resolver.asked).toEqual([]);
  });
});

describe('admitUrl: resolution', () => {
  it.each([
    'https://nowhere.example/',
    'https://empty.example/',
    'https://garbage.example/',
    'https://octal-answer.example/',
    'https://short-answer.example/',
  ])('refuses %s as unresolvable (no answer, or an answer it cannot read exactly)', async (url) => {
    expectRefused(await admit(url), 'unresolvable');
  });

  it('asks the resolver for the normalized name and never for an address literal', async () => {
    const resolver = recordingResolver(names);
    await admitUrl('https://PUBLIC.Example./path', strict, resolver);
    await admitUrl('https://public.example../path', strict, resolver);
    await admitUrl('https://93.184.216.34/', strict, resolver);
    await admitUrl('https://[2606:2800:220:1:248:1893:25c8:1946]/', strict, resolver);
    expect(resolver.asked).toEqual(['public.example', 'public.example']);
  });

  it('checks every address, whatever their order', async () => {
    const resolver = recordingResolver({
      'a.example': [PUBLIC_V4, PUBLIC_V6, '192.168.1.1'],
      'b.example': ['192.168.1.1', PUBLIC_V4],
    });
    expectRefused(await admitUrl('https://a.example/', strict, resolver), 'private_destination');
    expectRefused(await admitUrl('https://b.example/', strict, resolver), 'private_destination');
  });

  it('reports the most specific cause among several refused addresses', async () => {
    const resolver = recordingResolver({ 'c.example': ['10.0.0.1', '127.0.0.1', '169.254.169.254'] });
    expectRefused(await admitUrl('https://c.example/', strict, resolver), 'metadata_destination');
  });

  it('refuses, never rejects, for a resolver that fails (more cases in url-admission.resolver-failures)', async () => {
    const broken = { resolve: () => Promise.reject(new Error('resolver crashed')) };
    expect(await admitUrl('https://public.example/', strict, broken)).toEqual({
      ok: false,
      reason: 'unresolvable',
      origin: 'https://public.example:443',
    });
  });
});

describe('admitUrl: admitted URLs', () => {
  it.each([
    ['https://public.example/mcp', 'https://public.example:443', [PUBLIC_V4]],
    ['https://Public.Example.:8443/mcp?x=1', 'https://public.example:8443', [PUBLIC_V4]],
    ['https://dual.example/', 'https://dual.example:443', [PUBLIC_V4, PUBLIC_V6]],
    ['https://93.184.216.34/', 'https://93.184.216.34:443', [PUBLIC_V4]],
    [
      'https://[2606:2800:220:1:248:1893:25c8:1946]/',
      'https://[2606:2800:220:1:248:1893:25c8:1946]:443',
      [PUBLIC_V6],
    ],
    ['https://[::ffff:93.184.216.34]/', 'https://[::ffff:5db8:d822]:443', ['::ffff:5db8:d822']],
    ['https://[64:ff9b::93.184.216.34]/', 'https://[64:ff9b::5db8:d822]:443', ['64:ff9b::5db8:d822']],
  ])('admits %s as %s with its checked addresses', async (url, origin, addresses) => {
    expect(await admit(url)).toEqual({ ok: true, origin, addresses });
  });

  it('returns canonical address text whatever spelling the resolver used', async () => {
    const resolver = recordingResolver({
      'v6.example': ['2606:2800:0220:0001:0248:1893:25C8:1946', PUBLIC_V4, PUBLIC_V4],
    });
    expect(await admitUrl('https://v6.example/', strict, resolver)).toMatchObject({
      ok: true,
      addresses: [PUBLIC_V6, PUBLIC_V4],
    });
  });
});

describe('admitUrl: what a refusal carries', () => {
  it('names the origin only: never path, query, fragment, userinfo or resolved addresses', async () => {
    const cases: [string, EgressPolicy][] = [
      ['https://private.example:8443/secret-path?token=hunter2#frag', strict],
      ['https://user:hunter2@private.example/secret-path', strict],
      ['http://private.example/secret-path?token=hunter2', devLoopback],
      ['https://metadata.google.internal/secret-path?token=hunter2', strict],
      ['https://nowhere.example/secret-path?token=hunter2', strict],
    ];
    for (const [url, policy] of cases) {
      const result = await admit(url, policy);
      expect(result.ok).toBe(false);
      const text = JSON.stringify(result);
      for (const leak of ['secret-path', 'hunter2', 'frag', 'user', '192.168.0.5'])
        expect(text).not.toContain(leak);
      expect(Object.keys(result).sort()).toEqual(['ok', 'origin', 'reason']);
    }
    expect(await admit('https://private.example:8443/secret-path?token=hunter2')).toEqual({
      ok: false,
      reason: 'private_destination',
      origin: 'https://private.example:8443',
    });
  });

  it('throws on a policy that failed its boot check (a bug, not an input)', async () => {
    const broken = withPolicy({ tenantOptedInPrivateRanges: ['10.0.0.0/33'] });
    await expect(admitUrl('https://public.example/', broken, recordingResolver(names))).rejects.toThrow(
      /not a CIDR/,
    );
  });
});
