import { randomBytes, randomUUID } from 'node:crypto';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  testRedisUrl,
  type TestDatabase,
  type TestTenant,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { CliIo } from '../cli-io';
import { runCli } from '../run-cli';
// The CLI's peer is the real API on a loopback port: a test reaching for its real peer is the one place an app
// imports another (as the gateway's int-specs do).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../../api/src/create-api-app.js';

export interface LoopbackApi {
  readonly testDb: TestDatabase;
  readonly db: Database;
  readonly app: NestFastifyApplication;
  readonly url: string;
  readonly tenant: TestTenant;
  close(): Promise<void>;
}

/** A migrated database of this file's own, one tenant, and the API listening on 127.0.0.1. */
export async function startLoopbackApi(
  env: Record<string, string> = {},
  tenants: { slug?: string } = {},
): Promise<LoopbackApi> {
  const testDb = await createTestDatabase();
  const db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  const tenant = await createTestTenant(db, { slug: tenants.slug ?? `acme-${randomUUID().slice(0, 8)}` });
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: `gh-test-${randomBytes(6).toString('hex')}`,
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    ...env,
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'cli-test-api', level: 'silent' }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = await app.getUrl();
  return {
    testDb,
    db,
    app,
    url,
    tenant,
    close: async () => {
      await app.close();
      await db.close();
      await testDb.drop();
    },
  };
}

export interface CliRun {
  readonly code: number;
  readonly out: string[];
  readonly err: string[];
}

/** The CLI run in-process (its runner, with captured stdout/stderr), as bin/gatehouse.cjs runs it. */
export async function runGatehouse(
  argv: readonly string[],
  options: { env?: Record<string, string | undefined>; stdin?: string } = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: options.env ?? {},
    stdinIsTerminal: options.stdin === undefined,
    readStdin: async () => options.stdin ?? '',
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}
