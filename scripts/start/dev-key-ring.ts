import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * A key-encryption key ring for development only: one random AES-256 key, generated on first use into
 * `.gatehouse/dev-keys` (owner-only permissions) and reused afterwards, so data encrypted by one `npm start`
 * still decrypts in the next. Production keys always come from the operator's GATEHOUSE_KEYS.
 */
const devKeyRingSchema = z.object({ keys: z.string().min(1), activeKeyId: z.string().min(1) });

export type DevKeyRing = z.infer<typeof devKeyRingSchema> & { created: boolean; file: string };

export const DEV_KEY_ID = 'dev-1';

export function loadOrCreateDevKeyRing(dir: string): DevKeyRing {
  const file = join(dir, 'key-ring.json');
  try {
    const parsed = devKeyRingSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return { ...parsed.data, created: false, file };
  } catch {
    // None yet.
  }
  const ring = { keys: `${DEV_KEY_ID}:${randomBytes(32).toString('base64')}`, activeKeyId: DEV_KEY_ID };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(ring, null, 2)}\n`, { mode: 0o600 });
  return { ...ring, created: true, file };
}
