import { isLocalhostName, normalizeHostname, parseHost } from './host-name';

describe('parseHost', () => {
  it.each([
    ['127.0.0.1...', '127.0.0.1'],
    ['0x7f.1..', '127.0.0.1'],
    ['2130706433..', '127.0.0.1'],
    ['[::1]', '::1'],
  ])('reads %s as the address %s', (hostname, address) => {
    const host = parseHost(hostname);
    expect(host?.kind).toBe('ip');
    expect(host?.kind === 'ip' ? host.address.toString() : null).toBe(address);
  });

  it.each([
    ['example.com.', 'example.com'],
    ['example.com...', 'example.com'],
    ['EXAMPLE.com', 'example.com'],
    ['b\u00fccher.example', 'xn--bcher-kva.example'],
  ])('reads %s as the name %s', (hostname, name) => {
    expect(parseHost(hostname)).toEqual({ kind: 'name', name });
  });

  it.each(['', '...', '[::1', '[not-an-address]'])('gives nothing usable for %j', (hostname) => {
    expect(parseHost(hostname)).toBeNull();
  });
});

describe('normalizeHostname', () => {
  it('normalizes names and refuses addresses and junk', () => {
    expect(normalizeHostname(' Redis.Example. ')).toBe('redis.example');
    expect(normalizeHostname('10.0.0.1')).toBeNull();
    expect(normalizeHostname('a b')).toBeNull();
  });
});

describe('isLocalhostName', () => {
  it.each([
    ['localhost', true],
    ['app.localhost', true],
    ['localhost.example', false],
    ['notlocalhost', false],
  ] as const)('%s: %s', (name, expected) => {
    expect(isLocalhostName(name)).toBe(expected);
  });
});
