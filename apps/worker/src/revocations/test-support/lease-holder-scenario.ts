import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { QueueName, ROLE_SCOPES, type CatalogRefreshPayloadV2, type Scope } from '@gatehouse/contracts';
import { createDatabase } from '@gatehouse/db';
import { parseConfig, type Logger } from '@gatehouse/platform';
import { createTestTenant, createTestUser, createTestWorkspace, type TestDatabase } from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// The holder's peer is the real API (leases, the ledger, the relay): a test reaching for its real peer is the one
// place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mintApiToken } from '../../../../api/src/auth/mint-api-token.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../../../api/src/create-api-app.js';
import {
  CatalogRefreshProcessor,
  type CatalogRefreshOutcome,
} from '../../catalog-refresh/catalog-refresh-processor.js';
import { workerConfigSchema } from '../../config/worker.config.js';
import { createWorkerApp, type WorkerApp } from '../../create-worker-app.js';

// A lease holder under test (the int-spec of the holder and the revocation latency bench): the real API on a
// loopback port, and the worker app, both on the Redis given; one tenant, one workspace, a managed source with one
// stdio server (`silent`: answers initialize, never a listing) on a pool whose ceiling allows exactly it. A
// refresh runs the worker's catalog-refresh processor itself (leases with the worker token, holds the lease,
// watches the tenant's revocation stream, spawns the child and waits in discovery), so a revocation is what ends
// it: `dropped`, with the child's process group closed.

export const SILENT_SERVER = 'silent';
const POOL = 'local';

export interface LeaseHolderScenarioOptions {
  readonly testDb: TestDatabase;
  readonly redisUrl: string;
  readonly logger: Logger;
  /** REDIS_KEY_PREFIX of both apps (default: one of this scenario's own, so a shared Redis is safe). */
  readonly keyPrefix?: string;
  /** The worker's way to the API, given the API's URL (default: straight to it); e.g. a gate of the test's. */
  readonly workerApiUrl?: (apiUrl: string) => Promise<string>;
}

export interface Approved {
  readonly fingerprint: string;
  readonly approvalId: string;
}

export interface DiscoveryChild {
  readonly pid: number;
  readonly pgid: number;
}

export interface LeaseHolderScenario {
  readonly api: NestFastifyApplication;
  readonly apiUrl: string;
  readonly worker: WorkerApp;
  readonly tenantId: string;
  readonly workspaceId: string;
  /** The tenant's admin, and a user token of theirs (their role's scopes). */
  readonly adminUserId: string;
  readonly adminToken: string;
  /** The revocation namespace both apps use (REDIS_KEY_PREFIX without its colon). */
  readonly namespace: string;
  /** Opens a review of the server in the workspace view and approves exactly what it shows. */
  approve(serverName?: string): Promise<Approved>;
  /** `POST /v1/approvals/:id/revoke` as an admin. */
  revoke(approvalId: string): Promise<void>;
  /** Runs one catalog refresh in the worker (its processor, not through a queue): settles when the job ends. */
  refresh(approved: Approved): Promise<CatalogRefreshOutcome>;
  /**
   * The stdio child of a refresh, once it runs (this process's child, started with that command line); `until`
   * ends the wait early (rejects) when the test learnt by other means that no child is coming.
   */
  discoveryChild(until?: AbortSignal): Promise<DiscoveryChild>;
  close(): Promise<void>;
}

/** The repository root (where nx.json is), from the source tree or from dist/. */
function repositoryRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('repository root not found');
    dir = parent;
  }
  return dir;
}

export async function startLeaseHolderScenario(
  options: LeaseHolderScenarioOptions,
): Promise<LeaseHolderScenario> {
  const root = repositoryRoot();
  const keyPrefix = options.keyPrefix ?? `gh-holder-${randomBytes(6).toString('hex')}:`;
  const node = process.execPath;
  const silent = join(root, 'apps/worker/src/catalog-refresh/test-support/silent-listing-server.fixture.cjs');
  const db = createDatabase({ url: options.testDb.appUrl, poolMax: 2 });
  const tenant = await createTestTenant(db, { slug: `holder-${randomUUID().slice(0, 8)}` });
  const admin = await createTestUser(db, tenant.id, { role: 'admin' });
  const approver = await createTestUser(db, tenant.id, { role: 'approver' });
  const workspaceId = (await createTestWorkspace(db, tenant.id)).id;
  const mint = (userId: string | null, kind: 'user' | 'worker', scopes: readonly Scope[]) =>
    db.withTenant(tenant.id, async (tx) => {
      const minted = await mintApiToken(tx, {
        tenantId: tenant.id,
        createdById: admin.id,
        name: `holder ${kind}`,
        grant: {
          kind,
          userId,
          scopes: [...scopes],
          workspaceIds: [],
          pool: kind === 'worker' ? POOL : null,
        },
        expiresAt: null,
      });
      return minted.secret;
    });
  const tokens = {
    admin: await mint(admin.id, 'user', ROLE_SCOPES.admin),
    approver: await mint(approver.id, 'user', ROLE_SCOPES.approver),
    worker: await mint(null, 'worker', ['leases:write', 'snapshots:write', 'revocations:read']),
  };
  await db.close();

  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: options.testDb.appUrl,
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: keyPrefix,
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({
      [POOL]: { tenants: [tenant.slug], stdio: true, commandCeiling: [[node, silent]], allowedRoots: [root] },
    }),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const api = await createApiApp(parsed.config, { logger: options.logger });
  await api.listen({ host: '127.0.0.1', port: 0 });
  const apiUrl = await api.getUrl();

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

  let worker: WorkerApp | null = null;
  try {
    await call('admin', 'PUT', '/v1/host-policy', {
      stdioCommands: [[node, silent]],
      headerHelpers: [],
      privateCidrs: [],
      traceContextOrigins: [],
      fourEyes: false,
    });
    await call('admin', 'PUT', '/v1/definition-sources', {
      tier: 'managed',
      name: 'holder',
      document: { mcpServers: { [SILENT_SERVER]: { type: 'stdio', command: node, args: [silent] } } },
    });
    const workerConfig = parseConfig(workerConfigSchema, {
      LOG_LEVEL: 'silent',
      REDIS_URL: options.redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      API_URL: options.workerApiUrl === undefined ? apiUrl : await options.workerApiUrl(apiUrl),
      QUEUE_PREFIX: `gh-holder-${randomBytes(6).toString('hex')}`,
      WORKER_TOKEN: tokens.worker,
      WORKER_POOL: POOL,
      CHILD_PATH: `${dirname(node)}:/usr/bin:/bin`,
      CHILD_USER: 'self',
      CHILD_CLOSE_GRACE_MS: '500',
      // Discovery of `silent` never ends by itself within a test: only a revocation (or a shutdown) ends it.
      DISCOVERY_STARTUP_TIMEOUT_MS: '600000',
    });
    if (!workerConfig.ok) throw new Error(workerConfig.message);
    worker = await createWorkerApp(workerConfig.config, { logger: options.logger });
  } catch (error) {
    await api.close();
    throw error;
  }
  const started = worker;
  const processor = started.context.get(CatalogRefreshProcessor);

  return {
    api,
    apiUrl,
    worker: started,
    tenantId: tenant.id,
    workspaceId,
    adminUserId: admin.id,
    adminToken: tokens.admin,
    namespace: keyPrefix.replace(/:+$/, ''),
    approve: async (serverName = SILENT_SERVER) => {
      const opened = await call('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
        serverName,
        view: 'workspace',
      });
      const identity = opened.identity as { key: string; definitionFingerprint: string };
      const decided = await call(
        'approver',
        'POST',
        `/v1/approval-requests/${opened.id as string}/decision`,
        {
          decision: 'approve',
          seenFingerprint: identity.definitionFingerprint,
          seenIdentityKey: identity.key,
        },
      );
      return { fingerprint: identity.definitionFingerprint, approvalId: decided.id as string };
    },
    revoke: async (approvalId) => {
      await call('admin', 'POST', `/v1/approvals/${approvalId}/revoke`, { reason: 'revoked mid-discovery' });
    },
    refresh: (approved) => {
      const payload: CatalogRefreshPayloadV2 = {
        v: 2,
        tenantId: tenant.id,
        workspaceId,
        serverName: SILENT_SERVER,
        definitionFingerprint: approved.fingerprint,
        principalUserId: null,
        pool: POOL,
        reason: 'manual',
        requestedAt: new Date().toISOString(),
      };
      return processor.handle(payload, {
        jobId: `holder-${randomUUID()}`,
        attempt: 1,
        lastAttempt: false,
        queue: QueueName.CatalogRefresh,
      });
    },
    discoveryChild: (until) => discoveryChildOf(silent, until),
    close: async () => {
      await started.close();
      await api.close();
    },
  };
}

/**
 * Waits for this process's child started with `needle` on its command line: another process's start is
 * announced by no event of ours, so /proc is read every 20 ms, for at most 20 s.
 */
async function discoveryChildOf(needle: string, until?: AbortSignal): Promise<DiscoveryChild> {
  for (let waited = 0; waited <= 20_000; waited += 20) {
    until?.throwIfAborted();
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
      if (!cmdline.includes(needle)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      // pid (comm) state ppid pgrp ...: the fields after the parenthesised command name.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || Number(fields[1]) !== process.pid) continue;
      return { pid: Number(entry), pgid: Number(fields[2]) };
    }
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error('the discovery child did not start');
}

/** Whether any process of the group is left. */
export function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
