import { randomBytes, randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { ROLE_SCOPES, type Scope } from '@gatehouse/contracts';
import { createDatabase, insertGatewayToken } from '@gatehouse/db';
import { catalogDocumentOf, superviseAdmitted } from '@gatehouse/mcp-client';
import { createLogger, parseConfig } from '@gatehouse/platform';
import { createTestTenant, createTestUser, createTestWorkspace, type TestDatabase } from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mintTokenSecret } from '../apps/api/src/auth/api-token-format';
import { mintApiToken } from '../apps/api/src/auth/mint-api-token';
import { mintTestToken } from '../apps/api/src/commands/testing/surfaces-harness';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { createApiApp } from '../apps/api/src/create-api-app';

// The gateway-call bench's Gatehouse side: the real API (createApiApp, in this process, on a loopback port, with
// a counter of every HTTP request it answers), one tenant and workspace, a managed source with one stdio server
// (`echo`: node dist/bench/echo-stdio.server.js) on a pool whose ceiling allows exactly it, approved, discovered
// and its catalog posted as the worker does; a gateway token and an agent token of the workspace; and the BUILT
// gateway (dist/apps/gateway/src/main.js) in its own process, as `npm start` runs it (LOG_LEVEL info, its logs to
// a null sink), the rate limits raised out of the way of the load.

export const ECHO_SERVER = 'echo';
const POOL = 'local';

export interface GatewayScenario {
  /** The workspace endpoint, `http://127.0.0.1:<port>/mcp/w/<id>`. */
  readonly gatewayUrl: string;
  readonly gatewayPid: number;
  readonly agentToken: string;
  /** The echo upstream's command line, as the gateway leases it. */
  readonly echoCommand: readonly [string, ...string[]];
  /** HTTP requests the API has had so far, by path (ids replaced by `:id`). */
  apiRequests(): Readonly<Record<string, number>>;
  close(): Promise<void>;
}

export function repositoryRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('repository root not found');
    dir = parent;
  }
  return dir;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  await new Promise<void>((done) => probe.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Polls `url` until it answers (any status) or the child exits. */
export async function waitForHttp(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  throw new Error(`${what} did not answer within 60 s`);
}

/** Ends a child and waits for it (TERM, then KILL after 5 s). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export async function startGatewayScenario(options: {
  readonly testDb: TestDatabase;
  readonly redisUrl: string;
}): Promise<GatewayScenario> {
  const root = repositoryRoot();
  const node = process.execPath;
  const echo = join(root, 'dist/bench/echo-stdio.server.js');
  const echoCommand: [string, string] = [node, echo];
  const keyPrefix = `gh-gwbench-${randomBytes(6).toString('hex')}:`;
  const db = createDatabase({ url: options.testDb.appUrl, poolMax: 2 });
  const tenant = await createTestTenant(db, { slug: `gwbench-${randomUUID().slice(0, 8)}` });
  const admin = await createTestUser(db, tenant.id, { role: 'admin' });
  const approver = await createTestUser(db, tenant.id, { role: 'approver' });
  const workspaceId = (await createTestWorkspace(db, tenant.id)).id;
  const mint = (userId: string | null, kind: 'user' | 'worker', scopes: readonly Scope[]) =>
    db.withTenant(tenant.id, async (tx) => {
      const minted = await mintApiToken(tx, {
        tenantId: tenant.id,
        createdById: admin.id,
        name: `gwbench ${kind}`,
        grant: { kind, userId, scopes: [...scopes], workspaceIds: [], pool: kind === 'worker' ? POOL : null },
        expiresAt: null,
      });
      return minted.secret;
    });
  const tokens = {
    admin: await mint(admin.id, 'user', ROLE_SCOPES.admin),
    approver: await mint(approver.id, 'user', ROLE_SCOPES.approver),
    worker: await mint(null, 'worker', ['leases:write', 'snapshots:write']),
  };
  const agentToken = (
    await mintTestToken(db, tenant, admin, {
      kind: 'agent',
      scopes: ['gateway:use'],
      workspaceIds: [workspaceId],
    })
  ).secret;
  await db.close();
  const gatewaySecret = mintTokenSecret('gateway');
  await insertGatewayToken({
    ownerUrl: options.testDb.ownerUrl,
    name: 'gateway bench',
    scopes: [
      'tokens:introspect',
      'leases:write',
      'catalog:read',
      'revocations:read',
      'catalog:refresh',
    ] satisfies Scope[],
    pool: POOL,
    secretHash: gatewaySecret.secretHash,
    prefix: gatewaySecret.prefix,
    expiresAt: null,
  });

  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: options.testDb.appUrl,
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: keyPrefix,
    QUEUE_PREFIX: `gh-gwbench-${randomBytes(6).toString('hex')}`,
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({
      [POOL]: { tenants: [tenant.slug], stdio: true, commandCeiling: [echoCommand], allowedRoots: [root] },
    }),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const api: NestFastifyApplication = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'api', level: 'silent' }),
  });
  const requests: Record<string, number> = {};
  // A second 'request' listener beside Fastify's: it counts, it never answers.
  api.getHttpServer().on('request', (request: { url?: string }) => {
    const path = (request.url ?? '').split('?')[0]?.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ':id') ?? '';
    requests[path] = (requests[path] ?? 0) + 1;
  });
  await api.listen({ host: '127.0.0.1', port: 0 });
  const apiUrl = await api.getUrl();
  let gateway: ChildProcess | null = null;
  try {
    const call = async (who: keyof typeof tokens, method: string, path: string, body?: unknown) => {
      const response = await fetch(new URL(path, apiUrl), {
        method,
        headers: {
          authorization: `Bearer ${tokens[who]}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
      return JSON.parse(text || 'null') as Record<string, unknown>;
    };
    await call('admin', 'PUT', '/v1/host-policy', {
      stdioCommands: [echoCommand],
      headerHelpers: [],
      privateCidrs: [],
      traceContextOrigins: [],
      fourEyes: false,
    });
    await call('admin', 'PUT', '/v1/definition-sources', {
      tier: 'managed',
      name: 'gwbench',
      document: { mcpServers: { [ECHO_SERVER]: { type: 'stdio', command: node, args: [echo] } } },
    });
    const opened = await call('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
      serverName: ECHO_SERVER,
      view: 'workspace',
    });
    const identity = opened.identity as { key: string; definitionFingerprint: string };
    await call('approver', 'POST', `/v1/approval-requests/${opened.id as string}/decision`, {
      decision: 'approve',
      seenFingerprint: identity.definitionFingerprint,
      seenIdentityKey: identity.key,
    });
    await discoverAndSubmit(call, workspaceId, dirname(node));

    const port = await freePort();
    // BENCH_GATEWAY_NODE_ARGS: node flags for the gateway process (profiling: `--cpu-prof --cpu-prof-dir=...`).
    const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
    gateway = spawn(node, [...nodeArgs, join(root, 'dist/apps/gateway/src/main.js')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        // Not production: production refuses CHILD_USER=self (children never keep the gateway's own account),
        // and the echo server lives in the checkout, out of an unprivileged account's reach. The gateway reads
        // NODE_ENV for that choice only.
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        GATEWAY_HOST: '127.0.0.1',
        GATEWAY_PORT: String(port),
        REDIS_URL: options.redisUrl,
        REDIS_KEY_PREFIX: keyPrefix,
        API_URL: apiUrl,
        GATEWAY_TOKEN: gatewaySecret.secret,
        CHILD_PATH: `${dirname(node)}:/usr/bin:/bin`,
        CHILD_USER: 'self',
        RATE_LIMIT_PER_TOKEN: '1000000',
        RATE_LIMIT_PER_WORKSPACE: '10000000',
      },
    });
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, gateway, 'gateway');
    const started = gateway;
    if (started.pid === undefined) throw new Error('gateway has no pid');
    return {
      gatewayUrl: `http://127.0.0.1:${port}/mcp/w/${workspaceId}`,
      gatewayPid: started.pid,
      agentToken,
      echoCommand,
      apiRequests: () => ({ ...requests }),
      close: async () => {
        await stopChild(started);
        await api.close();
      },
    };
  } catch (error) {
    if (gateway !== null) await stopChild(gateway);
    await api.close();
    throw error;
  }
}

type Call = (who: 'worker', method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** Leases the server as a worker, lists it through libs/mcp-client and posts its catalog, as the worker does. */
async function discoverAndSubmit(call: Call, workspaceId: string, nodeDir: string): Promise<void> {
  const lease = (await call('worker', 'POST', '/v1/leases', { workspaceId, serverName: ECHO_SERVER })) as {
    id: string;
    transport: { transport: unknown };
    source: { tier: 'managed'; origin: string };
  };
  const supervisor = superviseAdmitted(lease.transport.transport, {
    serverId: ECHO_SERVER,
    connect: {
      serverName: ECHO_SERVER,
      clientInfo: { name: 'gateway-call-bench', version: '0.0.0' },
      defaultStartupTimeoutMs: 30_000,
      searchPath: `${nodeDir}:/usr/bin:/bin`,
      closeGraceMs: 500,
      // The echo server runs as the bench itself, as the gateway's does (CHILD_USER=self): the checkout may be
      // out of an unprivileged account's reach.
      canSwitchUser: false,
      stillAdmitted: () => true,
    },
    backoff: { maxAttempts: 1, baseMs: 0, maxMs: 0 },
  });
  try {
    if ((await supervisor.start()) !== 'ready' || supervisor.catalog === undefined)
      throw new Error('echo upstream did not list');
    const document = catalogDocumentOf(supervisor.catalog, {
      source: lease.source,
      fetchedAt: new Date().toISOString(),
    });
    await call('worker', 'POST', `/v1/leases/${lease.id}/snapshot`, { document });
  } finally {
    await supervisor.close();
    await call('worker', 'POST', `/v1/leases/${lease.id}/release`);
  }
}
