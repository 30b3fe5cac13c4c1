import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import type { AppliedMigration } from './migration-plan';

/** Prisma's own layout, so `prisma migrate deploy/status` keep working wherever its engine is available. */
const CREATE_HISTORY_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export async function ensureHistoryTable(client: Client): Promise<void> {
  await client.query(CREATE_HISTORY_TABLE);
}

export async function readHistory(client: Client): Promise<AppliedMigration[]> {
  const result = await client.query<{ migration_name: string; checksum: string; finished: boolean }>(
    `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished
       FROM "_prisma_migrations"
      WHERE rolled_back_at IS NULL
      ORDER BY started_at, migration_name`,
  );
  return result.rows.map((r) => ({ name: r.migration_name, checksum: r.checksum, finished: r.finished }));
}

/** Records a migration inside the transaction that applied it, so the row and the change commit together. */
export async function recordApplied(
  client: Client,
  name: string,
  checksum: string,
  startedAt: Date,
): Promise<void> {
  await client.query(
    `INSERT INTO "_prisma_migrations"
       (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
     VALUES ($1, $2, $3, $4, clock_timestamp(), 1)`,
    [randomUUID(), checksum, name, startedAt],
  );
}
