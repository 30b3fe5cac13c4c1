import { clientIpFromForwardedFor } from './client-ip';

describe('clientIpFromForwardedFor', () => {
  it('takes the last entry when browsers connect directly', () => {
    expect(clientIpFromForwardedFor('::ffff:127.0.0.1', 0)).toBe('::ffff:127.0.0.1');
    expect(clientIpFromForwardedFor('203.0.113.7', 0)).toBe('203.0.113.7');
  });

  it('skips the entries the configured proxies appended, ignoring what the client wrote further left', () => {
    expect(clientIpFromForwardedFor('6.6.6.6, 198.51.100.2, 10.0.0.5', 1)).toBe('198.51.100.2');
    expect(clientIpFromForwardedFor('6.6.6.6,198.51.100.2,10.0.0.5,10.0.0.6', 2)).toBe('198.51.100.2');
  });

  it('forwards nothing when there are fewer entries than declared proxies', () => {
    expect(clientIpFromForwardedFor('198.51.100.2', 2)).toBeUndefined();
  });

  it('forwards nothing that is not an IP address', () => {
    expect(clientIpFromForwardedFor(null, 0)).toBeUndefined();
    expect(clientIpFromForwardedFor('', 0)).toBeUndefined();
    expect(clientIpFromForwardedFor('unknown', 0)).toBeUndefined();
    expect(clientIpFromForwardedFor('1.2.3.4, evil\r\nx: y', 0)).toBeUndefined();
  });
});
