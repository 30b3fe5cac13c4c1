import { randomBytes } from 'node:crypto';
import { parseConfig } from '@gatehouse/platform';
import { rotateKeysConfigSchema } from './rotate-keys';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');
const base = {
  DATABASE_URL: 'postgresql://gatehouse_app@127.0.0.1:5432/gatehouse',
  GATEHOUSE_KEYS: `a:${keyA},b:${keyB}`,
  GATEHOUSE_ACTIVE_KEY_ID: 'b',
};

describe('rotateKeysConfigSchema', () => {
  it('parses the keys, the active id and a default batch size', () => {
    const parsed = parseConfig(rotateKeysConfigSchema, base);
    expect(parsed.ok && parsed.config.ROTATE_KEYS_BATCH_SIZE).toBe(100);
    expect(parseConfig(rotateKeysConfigSchema, { ...base, ROTATE_KEYS_BATCH_SIZE: '25' })).toMatchObject({
      ok: true,
      config: { ROTATE_KEYS_BATCH_SIZE: 25 },
    });
  });

  it.each([
    [{ GATEHOUSE_KEYS: undefined }, 'GATEHOUSE_KEYS is required but not set'],
    [{ GATEHOUSE_KEYS: `a:${keyA},b` }, 'GATEHOUSE_KEYS entry 2 is not kid:base64'],
    [{ GATEHOUSE_KEYS: `a:${keyA},b:${keyB.slice(4)}` }, 'GATEHOUSE_KEYS key b (entry 2) is not 32 bytes'],
    [{ GATEHOUSE_KEYS: `b:${keyA},b:${keyB}` }, 'GATEHOUSE_KEYS key id b appears twice'],
    [{ GATEHOUSE_ACTIVE_KEY_ID: 'c' }, 'GATEHOUSE_ACTIVE_KEY_ID names no key in GATEHOUSE_KEYS'],
    [{ ROTATE_KEYS_BATCH_SIZE: '0' }, 'ROTATE_KEYS_BATCH_SIZE must be a whole number from 1 to 10000'],
  ])('refuses %j in one line without echoing key material', (override, problem) => {
    const parsed = parseConfig(rotateKeysConfigSchema, { ...base, ...override });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toContain(problem);
    expect(parsed.message).not.toContain(keyA.slice(0, 12));
    expect(parsed.message).not.toContain(keyB.slice(4, 16));
  });
});
