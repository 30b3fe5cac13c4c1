import type { AuditEventInput } from './audit-event';
import { AuditEventRejectedError, assertAuditEventSafe, isSecretLookingKey } from './audit-event.guard';

const event = (overrides: Partial<AuditEventInput> = {}): AuditEventInput => ({
  actor: { type: 'user', id: '0b0c1e2f-0000-4000-8000-000000000001', tokenKind: 'user' },
  action: 'tokens.create',
  target: { type: 'api_token', id: 't-1' },
  outcome: 'success',
  data: {
    kind: 'agent',
    scopes: ['catalog:read'],
    prefix: 'gha_AbCdEf',
    tokenId: 't-1',
    expires: null,
    ttlDays: 30,
  },
  ...overrides,
});

describe('assertAuditEventSafe', () => {
  it('accepts ids, names, small scalars and arrays of strings', () => {
    expect(() => assertAuditEventSafe(event())).not.toThrow();
    expect(() => assertAuditEventSafe(event({ data: undefined }))).not.toThrow();
    expect(() => assertAuditEventSafe(event({ action: 'members.changeRole' }))).not.toThrow();
  });

  it.each([
    'token',
    'accessToken',
    'refresh_token',
    'secret',
    'clientSecret',
    'password',
    'newPassword',
    'authorization',
    'cookie',
    'sessionCookie',
    'csrfToken',
    'apiKey',
    'api_key',
    'signingKey',
    'credentials',
  ])('refuses the secret-looking key %s', (key) => {
    expect(isSecretLookingKey(key)).toBe(true);
    expect(() => assertAuditEventSafe(event({ data: { [key]: 'x' } }))).toThrow(AuditEventRejectedError);
  });

  it.each(['tokenId', 'tokenKind', 'tokenPrefix', 'prefix', 'keyId', 'name', 'scopes', 'role'])(
    'allows the key %s',
    (key) => {
      expect(isSecretLookingKey(key)).toBe(false);
    },
  );

  it('refuses nested objects, arrays of non-strings, non-finite numbers and oversized values', () => {
    const bad: unknown[] = [
      { nested: { a: 1 } },
      { list: [1, 2] },
      { n: Number.NaN },
      { n: Infinity },
      { s: 'x'.repeat(513) },
      { l: Array(101).fill('a') },
    ];
    for (const data of bad) {
      expect(() => assertAuditEventSafe(event({ data: data as AuditEventInput['data'] }))).toThrow(
        AuditEventRejectedError,
      );
    }
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i]));
    expect(() => assertAuditEventSafe(event({ data: many }))).toThrow(/more than 32 keys/);
  });

  it('refuses a token secret in any value, and NUL characters', () => {
    const secret = `ghu_${'A1b2'.repeat(8)}`;
    expect(() => assertAuditEventSafe(event({ data: { note: `made ${secret}` } }))).toThrow(
      /looks like a token secret/,
    );
    expect(() => assertAuditEventSafe(event({ target: { type: 'api_token', id: secret } }))).toThrow(
      AuditEventRejectedError,
    );
    expect(() => assertAuditEventSafe(event({ data: { names: ['ok', secret] } }))).toThrow(
      AuditEventRejectedError,
    );
    expect(() => assertAuditEventSafe(event({ action: secret }))).toThrow(/looks like a token secret/);
    expect(() => assertAuditEventSafe(event({ data: { name: 'a\u0000b' } }))).toThrow(/NUL/);
  });

  it('refuses keys that are not plain identifiers and malformed action or target names', () => {
    expect(() => assertAuditEventSafe(event({ data: { 'a.b': 1 } }))).toThrow(/plain identifier/);
    expect(() => assertAuditEventSafe(event({ action: '' }))).toThrow(AuditEventRejectedError);
    expect(() => assertAuditEventSafe(event({ action: 'drop table;' }))).toThrow(AuditEventRejectedError);
    expect(() => assertAuditEventSafe(event({ target: { type: 'x'.repeat(101), id: null } }))).toThrow(
      AuditEventRejectedError,
    );
  });

  it('never echoes a rejected value in the error', () => {
    try {
      assertAuditEventSafe(event({ data: { password: 'hunter2-very-secret' } }));
      throw new Error('expected a rejection');
    } catch (error) {
      expect(error).toBeInstanceOf(AuditEventRejectedError);
      expect(String(error)).not.toContain('hunter2');
    }
  });
});
