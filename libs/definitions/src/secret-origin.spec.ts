import fc from 'fast-check';
import { secretOriginOf } from './secret-origin';

describe('secretOriginOf', () => {
  it.each([
    ['postgres://u:p@db.internal/app', { scheme: 'postgres', host: 'db.internal', port: null }],
    [
      'postgres://u:p@db.internal:5433/app?sslmode=require',
      { scheme: 'postgres', host: 'db.internal', port: '5433' },
    ],
    ['POSTGRES://U:P@DB.Internal:05433/app', { scheme: 'postgres', host: 'db.internal', port: '5433' }],
    [
      'https://hooks.example.com/services/T0/B0/XXXX',
      { scheme: 'https', host: 'hooks.example.com', port: '443' },
    ],
    ['http://api.example.com?api_key=abc', { scheme: 'http', host: 'api.example.com', port: '80' }],
    ['wss://user:pw@[2001:DB8::1]:8443/x', { scheme: 'wss', host: '[2001:db8::1]', port: '8443' }],
    ['redis://:secret@cache:6379/0', { scheme: 'redis', host: 'cache', port: '6379' }],
    ['amqp://u:p@broker#frag', { scheme: 'amqp', host: 'broker', port: null }],
    ['mongodb://u:p@h1:27017,h2:27017/db', { scheme: 'mongodb', host: 'h1:27017,h2:27017', port: null }],
    // An unencoded `@` in the password: the authority's last `@` ends the userinfo, as URL parsers read it.
    ['postgres://u:p@ss@db.internal/app', { scheme: 'postgres', host: 'db.internal', port: null }],
    ['db.internal:5432', { scheme: null, host: 'db.internal', port: '5432' }],
    ['user:secret@db.internal:5432', { scheme: null, host: 'db.internal', port: '5432' }],
    ['10.0.0.7:6379/2', { scheme: null, host: '10.0.0.7', port: '6379' }],
    ['[::1]:5432', { scheme: null, host: '[::1]', port: '5432' }],
    ['  postgres://u:p@db/app\n', { scheme: 'postgres', host: 'db', port: null }],
  ])('%s points at its scheme, host and port', (text, origin) => {
    expect(secretOriginOf(text)).toEqual(origin);
  });

  // Drivers read a destination from the query too (libpq and node-postgres: `?host=`, `?hostaddr=`, `?port=`
  // override the authority), and from a URL behind a driver prefix (`jdbc:postgresql://`).
  it.each([
    [
      'postgres://u:p@db.internal/app?sslmode=require&host=evil.example',
      { scheme: 'postgres', host: 'db.internal?host=evil.example', port: null },
    ],
    [
      'postgresql:///app?HOST=Evil.Example&port=6432',
      { scheme: 'postgresql', host: '?host=evil.example&port=6432', port: null },
    ],
    [
      'postgres://db/app?%68ostaddr=10.0.0.9#frag',
      { scheme: 'postgres', host: 'db?hostaddr=10.0.0.9', port: null },
    ],
    [
      'jdbc:postgresql://u:p@Evil.Example:5432/db?password=x',
      { scheme: 'jdbc:postgresql', host: 'evil.example', port: '5432' },
    ],
  ])('%s points where its driver connects', (text, origin) => {
    expect(secretOriginOf(text)).toEqual(origin);
  });

  it('counts a destination moved by a query parameter, never the other parameters', () => {
    const at = (query: string) => secretOriginOf(`postgres://u:p@db.internal/app?${query}`);
    expect(at('host=db.internal')).not.toEqual(at('host=evil.example'));
    expect(at('port=5432')).not.toEqual(at('port=6432'));
    expect(at('password=a&sslmode=require')).toEqual(at('password=b&sslmode=require'));
    expect(at('api_key=a')).toEqual(at('api_key=b'));
    expect(secretOriginOf('https://h.example/x#a?host=b')).toEqual(secretOriginOf('https://h.example/x#c'));
  });

  it.each([
    'ghp_0123456789abcdefghijklmnopqrstuvwxyz',
    'Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc',
    'hunter2',
    'user:password',
    'a:b:c',
    'host:123456',
    'mailto:someone@example.com',
    '',
    '://nohost',
  ])('%j is no destination', (text) => {
    expect(secretOriginOf(text)).toBeNull();
  });

  it('never includes the userinfo, path, query or fragment', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9._~!$&'()*+,;=%-]{1,20}$/),
        fc.stringMatching(/^[a-z0-9._~!$&'()*+,;=%-]{1,20}$/),
        fc.stringMatching(/^[a-z0-9]{1,12}(\.[a-z0-9]{1,12}){0,3}$/),
        fc.stringMatching(/^(\/[a-z0-9._~%-]{0,10}){0,3}$/),
        // Parameters that name a destination (`host`, `hostaddr`, `port`) count: see the cases above.
        fc.stringMatching(/^[a-z0-9=&_%-]{0,20}$/).filter((q) => !/(^|&)(host|hostaddr|port)=/.test(q)),
        (user, password, host, path, query) => {
          const origin = secretOriginOf(`postgres://${user}:${password}@${host}:5432${path}?${query}`);
          expect(origin).toEqual({ scheme: 'postgres', host, port: '5432' });
        },
      ),
    );
  });
});
