import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

/**
 * Passwords `npm start` invents for the local database roles and the embedded cluster's superuser. They are
 * generated once per checkout (so an existing embedded cluster keeps working across runs), stored readable by
 * the owner only, and never printed.
 */
const localSecretsSchema = z.object({
  postgresSuperuserPassword: z.string().min(16),
  ownerPassword: z.string().min(16),
  appPassword: z.string().min(16),
});

export type LocalSecrets = z.infer<typeof localSecretsSchema>;

function newPassword(): string {
  return randomBytes(24).toString('base64url');
}

export function loadOrCreateLocalSecrets(file: string): LocalSecrets {
  try {
    const parsed = localSecretsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // Missing or unreadable: create a new set below.
  }
  const secrets: LocalSecrets = {
    postgresSuperuserPassword: newPassword(),
    ownerPassword: newPassword(),
    appPassword: newPassword(),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
