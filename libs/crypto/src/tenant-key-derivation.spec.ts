import { createHmac, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { EnvelopeCipher } from './envelope-cipher';
import { KeyRing } from './key-ring';
import { deriveTenantKey, TENANT_KEY_PURPOSES } from './tenant-key-derivation';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');

function ring(keys: string, activeKeyId: string): KeyRing {
  const parsed = KeyRing.parse({ keys, activeKeyId });
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.keyRing;
}

const TENANT_1 = '00000000-0000-4000-8000-000000000001';
const TENANT_2 = '00000000-0000-4000-8000-000000000002';

function derived(r: KeyRing, tenantId: string, keyId?: string): { keyId: string; hex: string } {
  const result = deriveTenantKey(r, { purpose: 'definition-fingerprint', tenantId, keyId });
  if (!result.ok) throw new Error(result.reason);
  return { keyId: result.keyId, hex: Buffer.from(result.key).toString('hex') };
}

describe('deriveTenantKey', () => {
  it('derives 32 bytes from the active key by default, the same for the same tenant every time', () => {
    const r = ring(`a:${keyA},b:${keyB}`, 'b');
    const first = derived(r, TENANT_1);
    expect(first.keyId).toBe('b');
    expect(first.hex).toMatch(/^[0-9a-f]{64}$/);
    expect(derived(r, TENANT_1)).toEqual(first);
    // Another ring object holding the same material derives the same key (it is a function of the key bytes).
    expect(derived(ring(`b:${keyB}`, 'b'), TENANT_1)).toEqual(first);
  });

  it('binds the key to the tenant and to the key it came from', () => {
    const r = ring(`a:${keyA},b:${keyB}`, 'a');
    const a1 = derived(r, TENANT_1);
    expect(derived(r, TENANT_2).hex).not.toBe(a1.hex);
    const b1 = derived(r, TENANT_1, 'b');
    expect(b1.keyId).toBe('b');
    expect(b1.hex).not.toBe(a1.hex);
  });

  it('is not the key-encryption key itself, nor a plain HMAC of the tenant id under it', () => {
    const r = ring(`a:${keyA}`, 'a');
    const { hex } = derived(r, TENANT_1);
    const kek = Buffer.from(keyA, 'base64');
    expect(hex).not.toBe(kek.toString('hex'));
    expect(hex).not.toBe(createHmac('sha256', kek).update(TENANT_1).digest('hex'));
  });

  it('refuses a key id the ring does not hold and a tenant id that is empty', () => {
    const r = ring(`a:${keyA}`, 'a');
    expect(
      deriveTenantKey(r, { purpose: 'definition-fingerprint', tenantId: TENANT_1, keyId: 'zz' }),
    ).toEqual({
      ok: false,
      reason: 'unknown_key',
    });
    expect(() => deriveTenantKey(r, { purpose: 'definition-fingerprint', tenantId: '' })).toThrow(TypeError);
  });

  it('knows its purposes (one derivation per use, never shared between them)', () => {
    expect(TENANT_KEY_PURPOSES).toContain('definition-fingerprint');
  });

  it('returns a fresh copy each time, never printed by inspect of the result', () => {
    const r = ring(`a:${keyA}`, 'a');
    const one = deriveTenantKey(r, { purpose: 'definition-fingerprint', tenantId: TENANT_1 });
    const two = deriveTenantKey(r, { purpose: 'definition-fingerprint', tenantId: TENANT_1 });
    if (!one.ok || !two.ok) throw new Error('derivation failed');
    one.key.fill(0);
    expect(Buffer.from(two.key).toString('hex')).not.toMatch(/^0+$/);
    expect(inspect(r)).not.toContain(Buffer.from(two.key).toString('hex'));
  });
});

describe('EnvelopeCipher.deriveTenantKey', () => {
  it('derives what deriveTenantKey derives from its ring', () => {
    const r = ring(`a:${keyA}`, 'a');
    const viaCipher = new EnvelopeCipher(r).deriveTenantKey('definition-fingerprint', TENANT_1);
    if (!viaCipher.ok) throw new Error(viaCipher.reason);
    expect(Buffer.from(viaCipher.key).toString('hex')).toBe(derived(r, TENANT_1).hex);
  });
});
