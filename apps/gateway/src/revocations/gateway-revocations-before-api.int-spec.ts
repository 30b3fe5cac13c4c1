import { createServer, type AddressInfo } from 'node:net';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  startDedicatedRedis,
  testApiEnv,
  TEST_DATABASE_TIMEOUT_MS,
  type DedicatedRedis,
  type TestDatabase,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// The gateway's peer is the real API: a test reaching for its real peer is the one place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createMember, mintTestToken } from '../../../api/src/commands/testing/surfaces-harness.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../../api/src/create-api-app.js';
import { insertTestGatewayToken } from '../acceptance/gateway-stack.harness';
import { gatewayConfigSchema } from '../config/gateway.config.js';
import { createGatewayApp } from '../create-gateway-app.js';
import { GATEWAY_REVOCATIONS } from '../endpoint/gateway-tokens.js';
import type { GatewayRevocationsHolder } from './gateway-revocations.holder.js';

// The gateway started before the API, with Redis away too (decision 0129): the order `npm start` once had. Its
// revocation holder keeps retrying (not ready on /readyz meanwhile), starts once both are there, and from then on a
// revoked token and a removed member are refused within a second although their callers were cached (TTL of a
// minute here). While the holder's stream is lost again (Redis away), cached callers are not served: every request
// asks the API, so a revocation is honoured even then. Real API, real Postgres, and a redis-server of this file's
// own (stopped and started again on its port; the shared one is never touched).

jest.setTimeout(120_000);

const silent = createLogger({ name: 'gateway-before-api-test', level: 'silent' });
const POOL = 'local';
/** How soon a revocation must reach the gateway (the README's promise). */
const REFUSAL_DEADLINE_MS = 1_000;

let testDb: TestDatabase;
let db: Database;
let redis: DedicatedRedis;
let acme: TestTenant;
let admin: TestUser;
let alice: TestUser;
let workspaceId: string;
let apiPort: number;
let apiEnv: Record<string, string>;
let api: NestFastifyApplication | null = null;
let gateway: NestFastifyApplication;
let gatewayUrl: string;
const tokens: Record<'admin' | 'agent' | 'alice' | 'bob', { secret: string; id: string }> = {} as never;

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  acme = await createTestTenant(db, { slug: `acme-before-api-${Date.now().toString(36)}` });
  admin = await createMember(db, acme, 'admin');
  alice = await createMember(db, acme, 'member');
  const bob = await createMember(db, acme, 'member');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = await mintTestToken(db, acme, admin, { kind: 'user' });
  tokens.alice = await mintTestToken(db, acme, alice, { kind: 'user' });
  tokens.bob = await mintTestToken(db, acme, bob, { kind: 'user' });
  tokens.agent = await mintTestToken(db, acme, admin, {
    kind: 'agent',
    scopes: ['gateway:use'],
    workspaceIds: [workspaceId],
  });
  const gatewayToken = await insertTestGatewayToken(testDb.ownerUrl, POOL);
  redis = await startDedicatedRedis();
  apiPort = await freeLoopbackPort();
  apiEnv = testApiEnv(testDb.appUrl, {
    REDIS_URL: redis.url,
    WORKER_POOLS: JSON.stringify({ [POOL]: { tenants: [acme.slug], stdio: false } }),
  });

  // Redis away and no API: the gateway boots anyway, its holder retrying behind it.
  await redis.shutdown();
  const config = parseConfig(gatewayConfigSchema, {
    LOG_LEVEL: 'silent',
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: apiEnv.REDIS_KEY_PREFIX,
    API_URL: `http://127.0.0.1:${apiPort}`,
    GATEWAY_TOKEN: gatewayToken,
    // A caller stays cached for a minute: only the holder (or its absence) can make a revocation count sooner.
    CALLER_CACHE_TTL_MS: '60000',
    REVOCATIONS_RETRY_MAX_MS: '500',
  });
  if (!config.ok) throw new Error(config.message);
  gateway = await createGatewayApp(config.config, { logger: silent });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  gatewayUrl = await gateway.getUrl();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.close();
  await api?.close();
  await redis?.stop();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

async function readiness(): Promise<{ status: number; checks: Record<string, { status: string }> }> {
  const response = await fetch(new URL('/readyz', gatewayUrl));
  const body = (await response.json()) as { checks: Record<string, { status: string }> };
  return { status: response.status, checks: body.checks };
}

/** /readyz once its revocations check is down, or as it is at the deadline (the assertion then says why). */
async function readinessOnceDown(deadlineMs: number): ReturnType<typeof readiness> {
  const deadline = performance.now() + deadlineMs;
  let current = await readiness();
  while (current.checks.revocations?.status !== 'down' && performance.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
    current = await readiness();
  }
  return current;
}

/** Starts the API on the port the gateway was told, after the gateway. */
async function startApi(): Promise<void> {
  const parsed = parseConfig(apiConfigSchema, apiEnv);
  if (!parsed.ok) throw new Error(parsed.message);
  api = await createApiApp(parsed.config, { logger: silent });
  await api.listen({ host: '127.0.0.1', port: apiPort });
}

/** A request of the workspace endpoint with a caller's token: 401 once the gateway refuses the caller. */
async function askGateway(token: string): Promise<number> {
  const response = await fetch(new URL(`/mcp/w/${workspaceId}`, gatewayUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Asks until the gateway refuses the token or the deadline passes; the last status seen. */
async function refusedWithin(token: string, deadlineMs: number): Promise<number> {
  const deadline = performance.now() + deadlineMs;
  let status = await askGateway(token);
  while (status !== 401 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    status = await askGateway(token);
  }
  return status;
}

async function apiAs(token: string, method: 'DELETE', path: string): Promise<number> {
  const response = await fetch(new URL(path, `http://127.0.0.1:${apiPort}`), {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  await response.arrayBuffer();
  return response.status;
}

/** Waits for the holder's own signal (no polling of /readyz): it has started or caught up again. */
async function holderLive(): Promise<void> {
  await gateway.get<GatewayRevocationsHolder | null>(GATEWAY_REVOCATIONS)?.whenLive();
}

describe('a gateway started before the API, with Redis away', () => {
  it('is not ready while its revocation holder has not started, and ready once it has', async () => {
    const down = await readiness();
    expect(down.status).toBe(503);
    expect(down.checks.revocations).toEqual({ status: 'down', reason: 'failed' });

    await redis.restart();
    // Redis is back but the API is not: the holder cannot read the ledger yet.
    const stillDown = await readiness();
    expect(stillDown.status).toBe(503);
    expect(stillDown.checks.revocations).toEqual({ status: 'down', reason: 'failed' });

    await startApi();
    await holderLive();
    const up = await readiness();
    expect(up.checks.revocations).toEqual({ status: 'up' });
    expect(up.status).toBe(200);
  });

  it('refuses a revoked agent token within a second, although its caller was cached', async () => {
    expect(await askGateway(tokens.agent.secret)).not.toBe(401);
    expect(await apiAs(tokens.admin.secret, 'DELETE', `/v1/tokens/${tokens.agent.id}`)).toBe(200);
    expect(await refusedWithin(tokens.agent.secret, REFUSAL_DEADLINE_MS)).toBe(401);
  });

  it('refuses a member removed from the tenant within a second', async () => {
    expect(await askGateway(tokens.alice.secret)).not.toBe(401);
    expect(await apiAs(tokens.admin.secret, 'DELETE', `/v1/members/${alice.id}`)).toBe(200);
    expect(await refusedWithin(tokens.alice.secret, REFUSAL_DEADLINE_MS)).toBe(401);
  });

  it('serves no cached caller while its stream is lost: a revocation then is refused within a second', async () => {
    expect(await askGateway(tokens.bob.secret)).not.toBe(401);
    await redis.shutdown();
    // The gateway learns of the lost stream from its socket's close event: await the holder saying so.
    const lost = await readinessOnceDown(10_000);
    expect(lost.checks.revocations).toEqual({ status: 'down', reason: 'failed' });

    expect(await apiAs(tokens.admin.secret, 'DELETE', `/v1/tokens/${tokens.bob.id}`)).toBe(200);
    expect(await refusedWithin(tokens.bob.secret, REFUSAL_DEADLINE_MS)).toBe(401);

    await redis.restart();
    await holderLive();
    expect((await readiness()).checks.revocations).toEqual({ status: 'up' });
    // The admin was never revoked: served again once the holder is live.
    expect(await askGateway(tokens.admin.secret)).not.toBe(401);
  });
});
