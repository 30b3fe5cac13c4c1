import { checkOriginAndHost } from './origin-host.guard.js';

const policy = {
  allowedHosts: ['localhost', 'gateway.example.com:443'],
  allowedOrigins: ['https://app.example.com'],
};

describe('checkOriginAndHost', () => {
  it('admits an allowed Host (a bare host at any port) without Origin', () => {
    expect(checkOriginAndHost({ host: 'localhost:4200' }, policy)).toEqual({ ok: true });
    expect(checkOriginAndHost({ host: 'LOCALHOST' }, policy)).toEqual({ ok: true });
    expect(checkOriginAndHost({ host: 'gateway.example.com:443' }, policy)).toEqual({ ok: true });
  });

  it('refuses a Host it does not answer for, a wrong port, or none', () => {
    for (const host of [
      'evil.example',
      'gateway.example.com:8443',
      'gateway.example.com',
      undefined,
      'a b',
    ]) {
      expect(checkOriginAndHost({ host }, policy)).toEqual({ ok: false, reason: 'host_not_allowed' });
    }
  });

  it('admits an Origin of its own hosts or one listed, and refuses any other (DNS rebinding)', () => {
    expect(checkOriginAndHost({ host: 'localhost', origin: 'http://localhost:3000' }, policy)).toEqual({
      ok: true,
    });
    expect(checkOriginAndHost({ host: 'localhost', origin: 'https://app.example.com' }, policy)).toEqual({
      ok: true,
    });
    for (const origin of [
      'http://evil.example',
      'null',
      'file://',
      'http://localhost/path',
      'ftp://localhost',
    ]) {
      expect(checkOriginAndHost({ host: 'localhost', origin }, policy)).toEqual({
        ok: false,
        reason: 'origin_not_allowed',
      });
    }
  });
});
