import { parseConfig } from '@gatehouse/platform';
import { z } from 'zod';
import { identityConfigShape, identitySettingsOf } from './identity.config';

describe('identity config', () => {
  const schema = z.object(identityConfigShape());

  it('defaults to one pool open to every tenant and a 30 min / 12 h session', () => {
    const parsed = parseConfig(schema, {});
    if (!parsed.ok) throw new Error(parsed.message);
    expect(identitySettingsOf(parsed.config)).toEqual({
      workerPools: { default: { tenants: '*' } },
      sessionPolicy: { idleTimeoutMs: 30 * 60_000, absoluteTimeoutMs: 12 * 3_600_000 },
    });
  });

  it('reads pools and session limits from the environment', () => {
    const parsed = parseConfig(schema, {
      WORKER_POOLS: '{"eu":{"tenants":["acme"]}}',
      SESSION_IDLE_MINUTES: '15',
      SESSION_ABSOLUTE_HOURS: '8',
    });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(identitySettingsOf(parsed.config)).toEqual({
      workerPools: { eu: { tenants: ['acme'] } },
      sessionPolicy: { idleTimeoutMs: 15 * 60_000, absoluteTimeoutMs: 8 * 3_600_000 },
    });
  });

  it('names a bad WORKER_POOLS in one line without its value', () => {
    const parsed = parseConfig(schema, { WORKER_POOLS: '{"eu":{"tenants":"acme-secret-ish"}}' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.message).toMatch(/^invalid configuration: WORKER_POOLS /);
    expect(parsed.message).not.toContain('acme-secret-ish');
  });
});
