// `node dist/scripts/rotate-keys.js`: re-encrypts every registered encrypted column onto GATEHOUSE_ACTIVE_KEY_ID,
// online (short per-batch transactions as the app role, compare-and-swap writes), then reports how many values
// are still on other keys. Exit 0 when none are (the old keys can be removed from GATEHOUSE_KEYS), 2 when some
// remain (rerun; see the failed/skipped counts), 1 on bad config or an infrastructure error.
// Prints ids and counts only, never values or keys. Ctrl-C stops between batches.
import { z } from 'zod';
import { EnvelopeCipher, parseKeyRing, type KeyRing } from '@gatehouse/crypto';
import { addKeyRingIssues } from '../apps/api/src/config/key-ring.config';
import {
  countRowsNotOnKey,
  createDatabase,
  defaultEncryptedColumns,
  rotateKeys,
  type RotationCounts,
  type RotationProgress,
} from '@gatehouse/db';
import {
  identifierField,
  integerField,
  parseConfig,
  postgresUrlField,
  secret,
  typeLabel,
  type Env,
} from '@gatehouse/platform';

export const rotateKeysConfigSchema = z
  .object({
    DATABASE_URL: secret(postgresUrlField()).describe('Postgres URL of the app role (gatehouse_app).'),
    GATEHOUSE_KEYS: secret(typeLabel(z.string().trim(), 'kid:base64,...')).describe(
      'Every key-encryption key still in use (`kid:base64` of 32 bytes, comma-separated), old and new.',
    ),
    GATEHOUSE_ACTIVE_KEY_ID: identifierField().describe('The key id to move every value onto.'),
    ROTATE_KEYS_BATCH_SIZE: integerField({ min: 1, max: 10_000 })
      .default(100)
      .describe('Rows per transaction during key rotation.'),
  })
  .superRefine((config, ctx) => {
    addKeyRingIssues(config.GATEHOUSE_KEYS, config.GATEHOUSE_ACTIVE_KEY_ID, ctx);
  });

export type RotateKeysConfig = z.output<typeof rotateKeysConfigSchema>;

export interface RunRotateKeysOptions {
  writeLine: (line: string) => void;
  signal?: AbortSignal;
}

/** Runs the rotation and the final count; resolves to the process exit code. */
export async function runRotateKeys(
  config: RotateKeysConfig,
  options: RunRotateKeysOptions,
): Promise<number> {
  const { writeLine, signal } = options;
  const ring = parseKeyRing({ keys: config.GATEHOUSE_KEYS, activeKeyId: config.GATEHOUSE_ACTIVE_KEY_ID });
  // The schema already refused a bad ring; this only narrows the type.
  if (!ring.ok) throw new Error(`GATEHOUSE_KEYS: ${ring.reason}`);
  const cipher = new EnvelopeCipher(ring.keyRing);
  const columns = defaultEncryptedColumns();
  const database = createDatabase({ url: config.DATABASE_URL, poolMax: 2 });
  try {
    await database.assertSafeAppRole();
    writeLine(`rotate-keys: ${describeRing(ring.keyRing)}; ${columns.list().length} registered column(s)`);
    const result = await rotateKeys({
      database,
      cipher,
      columns,
      batchSize: config.ROTATE_KEYS_BATCH_SIZE,
      ...(signal === undefined ? {} : { signal }),
      onProgress: (progress) => {
        if (progress.batch.scanned > 0) writeLine(formatProgress(progress));
      },
    });
    for (const column of result.columns) {
      writeLine(`rotate-keys: ${column.table}.${column.column} done: ${formatCounts(column)}`);
    }
    if (!result.completed) writeLine('rotate-keys: stopped before finishing');
    const remaining = await countRowsNotOnKey({ database, cipher, columns });
    for (const column of remaining.columns) {
      writeLine(
        `rotate-keys: ${column.table}.${column.column}: ${column.count} value(s) not on ${remaining.activeKeyId}`,
      );
    }
    if (remaining.total === 0) {
      writeLine(
        `rotate-keys: every value is on ${remaining.activeKeyId}; other keys can be removed from GATEHOUSE_KEYS`,
      );
      return 0;
    }
    writeLine(
      `rotate-keys: ${remaining.total} value(s) still on other keys; keep them in GATEHOUSE_KEYS and rerun`,
    );
    return 2;
  } finally {
    await database.close();
  }
}

function describeRing(ring: KeyRing): string {
  return `active key ${ring.activeKeyId}, keys ${ring.keyIds.join(',')}`;
}

function formatCounts(counts: RotationCounts): string {
  const failed = counts.failed;
  return (
    `scanned=${counts.scanned} rotated=${counts.rotated} skipped=${counts.skipped} ` +
    `unknown_key=${failed.unknown_key} malformed=${failed.malformed} authentication_failed=${failed.authentication_failed}`
  );
}

function formatProgress(progress: RotationProgress): string {
  return (
    `rotate-keys: ${progress.table}.${progress.column} tenant ${progress.tenantId}: ${formatCounts(progress.batch)}` +
    ` (column rotated=${progress.columnTotals.rotated})`
  );
}

async function main(env: Env): Promise<void> {
  const parsed = parseConfig(rotateKeysConfigSchema, env);
  if (!parsed.ok) {
    process.stderr.write(`rotate-keys: ${parsed.message}\n`);
    process.exit(1);
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const code = await runRotateKeys(parsed.config, {
      writeLine: (line) => process.stdout.write(`${line}\n`),
      signal: controller.signal,
    });
    process.exitCode = code;
  } catch (error) {
    // One line; infrastructure messages (connection refused, unsafe role) carry no values or keys.
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`rotate-keys: ${message.replace(/\s+/g, ' ')}\n`);
    process.exitCode = 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

if (require.main === module) void main(process.env);
