import { canonicalIp, clientIpOf, createTrustedProxies } from './client-ip';

describe('clientIpOf', () => {
  const trusted = createTrustedProxies(['10.0.0.5', '192.168.1.0/24', 'fd00::/8']);

  it('uses the socket address when the peer is not a trusted proxy, ignoring X-Forwarded-For', () => {
    expect(clientIpOf({ remoteAddress: '203.0.113.9', forwardedFor: '1.2.3.4' }, trusted)).toBe(
      '203.0.113.9',
    );
  });

  it('believes the hop a trusted proxy appended', () => {
    expect(clientIpOf({ remoteAddress: '10.0.0.5', forwardedFor: '198.51.100.7' }, trusted)).toBe(
      '198.51.100.7',
    );
  });

  it('reads from the right: a spoofed left-hand entry written by the client is ignored', () => {
    const forwardedFor = '1.1.1.1, 198.51.100.7';
    expect(clientIpOf({ remoteAddress: '10.0.0.5', forwardedFor }, trusted)).toBe('198.51.100.7');
  });

  it('walks through a chain of trusted proxies to the first untrusted address', () => {
    const forwardedFor = '6.6.6.6, 198.51.100.7, 192.168.1.20';
    expect(clientIpOf({ remoteAddress: '10.0.0.5', forwardedFor }, trusted)).toBe('198.51.100.7');
  });

  it('joins repeated X-Forwarded-For headers in order', () => {
    const forwardedFor = ['6.6.6.6', '198.51.100.7, 192.168.1.20'];
    expect(clientIpOf({ remoteAddress: '10.0.0.5', forwardedFor }, trusted)).toBe('198.51.100.7');
  });

  it('is the proxy itself when a trusted proxy sends no header', () => {
    expect(clientIpOf({ remoteAddress: '10.0.0.5', forwardedFor: undefined }, trusted)).toBe('10.0.0.5');
  });

  it('stops at an entry that is not an IP and keeps the last believable address', () => {
    const forwardedFor = '198.51.100.7, not-an-ip, 192.168.1.20';
    expect(clientIpOf({ remoteAddress: '10.0.0.5', forwardedFor }, trusted)).toBe('192.168.1.20');
  });

  it('matches IPv4-mapped IPv6 peers against IPv4 entries and canonicalizes them', () => {
    expect(clientIpOf({ remoteAddress: '::ffff:10.0.0.5', forwardedFor: '198.51.100.7' }, trusted)).toBe(
      '198.51.100.7',
    );
    expect(clientIpOf({ remoteAddress: '::ffff:203.0.113.9', forwardedFor: '1.2.3.4' }, trusted)).toBe(
      '203.0.113.9',
    );
  });

  it('supports IPv6 CIDRs', () => {
    expect(clientIpOf({ remoteAddress: 'fd00::1', forwardedFor: '2001:db8::7' }, trusted)).toBe(
      '2001:db8::7',
    );
  });

  it('trusts nobody with an empty list', () => {
    const none = createTrustedProxies([]);
    expect(clientIpOf({ remoteAddress: '127.0.0.1', forwardedFor: '1.2.3.4' }, none)).toBe('127.0.0.1');
  });

  it('refuses a malformed trusted entry', () => {
    expect(() => createTrustedProxies(['dashboard.internal'])).toThrow(TypeError);
  });
});

describe('canonicalIp', () => {
  it('unwraps IPv4-mapped IPv6 and lower-cases IPv6', () => {
    expect(canonicalIp('::FFFF:1.2.3.4')).toBe('1.2.3.4');
    expect(canonicalIp('2001:DB8::1')).toBe('2001:db8::1');
  });
});
