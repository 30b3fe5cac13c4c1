import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { buildWorkspaceCatalog } from '@gatehouse/catalog';
import { getWorkspaceCatalog, ROLE_SCOPES } from '@gatehouse/commands';
import { MAX_WORKSPACE_CATALOG_BYTES, workspaceCatalog, type ServerCatalogV1 } from '@gatehouse/contracts';
import { createDatabase, loadCatalogSnapshotContents, type Database } from '@gatehouse/db';
import { createFixedResolver } from '@gatehouse/egress';
import { createLogger, parseConfig } from '@gatehouse/platform';
import { createTestTenant, createTestUser, createTestWorkspace } from '@gatehouse/testing';
import { mintApiToken } from '../apps/api/src/auth/mint-api-token';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { createApiApp } from '../apps/api/src/create-api-app';
import { fixed, median, percentile, type BenchContext, type BenchSection } from './bench-context';

// The catalog lease (GET /v1/workspaces/:id/catalog, decision 0075) of 1,000 tools (4 approved servers of 250,
// each with a realistic input schema), posted through catalog.submit, read through the whole API over loopback
// with an agent token: a miss (no If-None-Match: activation decided, versions read, documents loaded, the catalog
// built, parsed through its declaration, serialized and sent) against a hit (If-None-Match with the current tag:
// activation decided and versions read, then 304). Sequential requests, alternating blocks after a warm-up; the
// server's CPU per request is this process's CPU (the API runs in it) over the requests. Then the miss path's
// steps are timed one by one on the same data (the profile of what a miss costs beyond a hit).

const SERVERS = 4;
const TOOLS_PER_SERVER = 250;
const WARMUP = 30;
const BLOCK = 20;
const BLOCKS = Number(process.env.BENCH_CATALOG_BLOCKS ?? 8);
const PROFILE_ROUNDS = 30;

const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });

function toolsOf(server: string): unknown[] {
  return Array.from({ length: TOOLS_PER_SERVER }, (_, i) => ({
    name: `mcp__${server}__tool_${i}`,
    remoteName: `tool_${i}`,
    description: `Reads records of kind ${i} from the ${server} store, newest first.`,
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Where to read', minLength: 1 },
        limit: { type: 'integer', minimum: 1, maximum: 1000 },
        mode: { type: 'string', enum: ['fast', 'full'] },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 16 },
      },
      required: ['path'],
      additionalProperties: false,
    },
    axes: { effect: 'read', egress: true },
    axesFrom: { effect: 'caller', egress: 'default', irreversibility: 'absent' },
    contentOrigin: 'external',
    source: { tier: 'managed', origin: 'managed:bench' },
  }));
}

function snapshotOf(server: string) {
  const source = { tier: 'managed', origin: 'managed:bench' };
  return {
    v: 1,
    complete: true,
    stale: false,
    servers: [
      {
        identity: { server, protocolVersion: '2025-11-25', serverVersion: '1.0.0' },
        source,
        contentOrigin: 'external',
        contentOriginDeclared: false,
        complete: true,
        stale: false,
        fetchedAt: new Date().toISOString(),
        tools: toolsOf(server),
        prompts: [],
        resources: [],
        resourceTemplates: [],
        diagnostics: [],
      },
    ],
    diagnostics: [],
  };
}

interface Timed {
  readonly ms: number[];
  cpuMs: number;
  bytes: number;
  statuses: Set<number>;
}

export async function benchCatalogLease(ctx: BenchContext): Promise<BenchSection> {
  const db = createDatabase({ url: ctx.testDb.appUrl, poolMax: 2 });
  const tenant = await createTestTenant(db);
  const owner = await createTestUser(db, tenant.id, { role: 'owner' });
  const approver = await createTestUser(db, tenant.id, { role: 'approver' });
  const workspace = await createTestWorkspace(db, tenant.id);
  const mint = (grant: Parameters<typeof mintApiToken>[1]['grant']) =>
    db.withTenant(tenant.id, (tx) =>
      mintApiToken(tx, { tenantId: tenant.id, createdById: owner.id, name: 'bench', grant, expiresAt: null }),
    );
  const tokens = {
    owner: (
      await mint({ kind: 'user', userId: owner.id, scopes: ROLE_SCOPES.owner, workspaceIds: [], pool: null })
    ).secret,
    approver: (
      await mint({
        kind: 'user',
        userId: approver.id,
        scopes: ROLE_SCOPES.approver,
        workspaceIds: [],
        pool: null,
      })
    ).secret,
    agent: (
      await mint({
        kind: 'agent',
        userId: null,
        scopes: ['catalog:read'],
        workspaceIds: [workspace.id],
        pool: null,
      })
    ).secret,
    worker: (
      await mint({
        kind: 'worker',
        userId: null,
        scopes: ['leases:write', 'snapshots:write'],
        workspaceIds: [],
        pool: 'local',
      })
    ).secret,
  };

  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: ctx.testDb.appUrl,
    REDIS_URL: ctx.redisUrl,
    REDIS_KEY_PREFIX: `gh-bench:${randomBytes(4).toString('hex')}:`,
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({ local: { tenants: '*' } }),
  });
  if (!parsed.ok) throw new Error(`catalog-lease: bad API config: ${parsed.message}`);
  const app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'api', level: 'info', destination: discard() }),
    egressResolver: createFixedResolver({ 'mcp.bench.example': ['93.184.216.34'] }),
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`catalog-lease: ${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  try {
    const names = Array.from({ length: SERVERS }, (_, i) => `bench${i}`);
    await call(tokens.owner, 'PUT', '/v1/definition-sources', {
      tier: 'managed',
      name: 'bench',
      document: {
        mcpServers: Object.fromEntries(
          names.map((name) => [name, { type: 'http', url: `https://mcp.bench.example/${name}` }]),
        ),
      },
    });
    for (const name of names) {
      const opened = await call(tokens.owner, 'POST', `/v1/workspaces/${workspace.id}/approval-requests`, {
        serverName: name,
        view: 'workspace',
      });
      const identity = opened.identity as { key: string; definitionFingerprint: string };
      await call(tokens.approver, 'POST', `/v1/approval-requests/${opened.id as string}/decision`, {
        decision: 'approve',
        seenFingerprint: identity.definitionFingerprint,
        seenIdentityKey: identity.key,
      });
      const lease = await call(tokens.worker, 'POST', '/v1/leases', {
        workspaceId: workspace.id,
        serverName: name,
      });
      await call(tokens.worker, 'POST', `/v1/leases/${lease.id as string}/snapshot`, {
        document: snapshotOf(name),
      });
      await call(tokens.worker, 'POST', `/v1/leases/${lease.id as string}/release`, {});
    }

    const url = `${origin}/v1/workspaces/${workspace.id}/catalog`;
    const first = await fetch(url, { headers: { authorization: `Bearer ${tokens.agent}` } });
    const firstBody = workspaceCatalog.parse(await first.json());
    const tag = first.headers.get('etag') ?? '';
    const toolCount = firstBody.document.servers.reduce((n, s) => n + s.tools.length, 0);
    if (toolCount !== SERVERS * TOOLS_PER_SERVER)
      throw new Error(`catalog-lease: ${toolCount} tools in the lease`);

    const once = async (hit: boolean, into: Timed) => {
      const started = performance.now();
      const response = await fetch(url, {
        headers: { authorization: `Bearer ${tokens.agent}`, ...(hit ? { 'if-none-match': tag } : {}) },
      });
      const body = await response.arrayBuffer();
      into.ms.push(performance.now() - started);
      into.bytes = body.byteLength;
      into.statuses.add(response.status);
    };
    const block = async (hit: boolean, into: Timed, count: number) => {
      const cpu = process.cpuUsage();
      for (let i = 0; i < count; i += 1) await once(hit, into);
      const used = process.cpuUsage(cpu);
      into.cpuMs += (used.user + used.system) / 1000;
    };
    const fresh = (): Timed => ({ ms: [], cpuMs: 0, bytes: 0, statuses: new Set() });
    await block(false, fresh(), WARMUP);
    await block(true, fresh(), WARMUP);
    const miss = fresh();
    const hit = fresh();
    for (let b = 0; b < BLOCKS; b += 1) {
      // Alternate which goes first, so drift in the machine's load falls on both.
      if (b % 2 === 0) {
        await block(false, miss, BLOCK);
        await block(true, hit, BLOCK);
      } else {
        await block(true, hit, BLOCK);
        await block(false, miss, BLOCK);
      }
    }
    if ([...hit.statuses].some((s) => s !== 304) || [...miss.statuses].some((s) => s !== 200))
      throw new Error(`catalog-lease: statuses hit ${[...hit.statuses]} miss ${[...miss.statuses]}`);

    const profile = await profileMiss(db, tenant.id, workspace.id, firstBody.servers.length);
    const mean = (values: readonly number[]) =>
      values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    const requests = BLOCKS * BLOCK;
    const ratio = median(hit.ms) / median(miss.ms);
    return {
      title: 'Catalog lease: ETag hit versus miss',
      method:
        `GET /v1/workspaces/:id/catalog with an agent token through the full API (createApiApp on loopback, ` +
        `request logging at info to a null sink) for ${SERVERS * TOOLS_PER_SERVER} tools (${SERVERS} approved ` +
        `servers of ${TOOLS_PER_SERVER}, snapshots posted through catalog.submit). A miss has no If-None-Match; a ` +
        `hit sends the current ETag and gets 304. ${requests} sequential requests of each after ${WARMUP} of ` +
        `warm-up each, in alternating blocks of ${BLOCK}. Server CPU per request is this process's CPU (the API ` +
        `and the client run in it) over the requests. The miss path's steps are then timed on their own ` +
        `(${PROFILE_ROUNDS} rounds, median): loading the chosen snapshots (one statement), building the catalog, ` +
        `parsing it through catalog.get's declaration, serializing it.`,
      rows: [
        { label: 'response body of a miss (bytes)', value: String(miss.bytes) },
        {
          label: 'miss: latency p50 / p99 / mean (ms)',
          value: `${fixed(median(miss.ms), 2)} / ${fixed(percentile(miss.ms, 99), 2)} / ${fixed(mean(miss.ms), 2)}`,
        },
        {
          label: 'hit (304): latency p50 / p99 / mean (ms)',
          value: `${fixed(median(hit.ms), 2)} / ${fixed(percentile(hit.ms, 99), 2)} / ${fixed(mean(hit.ms), 2)}`,
        },
        { label: 'miss: CPU per request (ms)', value: fixed(miss.cpuMs / requests, 2) },
        { label: 'hit: CPU per request (ms)', value: fixed(hit.cpuMs / requests, 2) },
        { label: 'hit / miss (CPU per request)', value: fixed(hit.cpuMs / miss.cpuMs, 3) },
        { label: 'miss step: load snapshots (ms)', value: fixed(profile.loadMs, 2) },
        { label: 'miss step: build the catalog (ms)', value: fixed(profile.buildMs, 2) },
        { label: 'miss step: parse through the declaration (ms)', value: fixed(profile.parseMs, 2) },
        { label: 'miss step: JSON.stringify (ms)', value: fixed(profile.stringifyMs, 2) },
      ],
      ratio: { label: 'hit / miss (latency p50; target <= 0.1)', value: ratio },
    };
  } finally {
    await app.close();
    await db.close();
  }
}

/** The miss path's steps beyond a hit, each timed on its own over the bench's data. */
async function profileMiss(db: Database, tenantId: string, workspaceId: string, servers: number) {
  const ids = await db.withTenant(tenantId, async (tx) =>
    (await tx.catalogSnapshot.findMany({ where: { workspaceId }, select: { id: true } })).map(
      (row) => row.id,
    ),
  );
  if (ids.length !== servers) throw new Error('catalog-lease: snapshots missing for the profile');
  const times = {
    loadMs: [] as number[],
    buildMs: [] as number[],
    parseMs: [] as number[],
    stringifyMs: [] as number[],
  };
  for (let round = 0; round < PROFILE_ROUNDS; round += 1) {
    let started = performance.now();
    const contents = await db.withTenant(tenantId, (tx) =>
      loadCatalogSnapshotContents(tx, { ids, maxBytes: MAX_WORKSPACE_CATALOG_BYTES }),
    );
    times.loadMs.push(performance.now() - started);
    started = performance.now();
    const catalog = buildWorkspaceCatalog({
      workspaceId,
      principalUserId: null,
      servers: contents.map((content) => {
        return {
          server: {
            name: content.serverName,
            source: { tier: 'managed' as const, origin: 'managed:bench' },
            definitionFingerprint: 'bench',
          },
          snapshot: {
            discoveredFor: 'workspace' as const,
            identity: {
              server: content.serverName,
              protocolVersion: content.protocolVersion,
              serverVersion: content.serverVersion,
            },
            complete: content.complete,
            stale: content.stale,
            fetchedAt: content.fetchedAt.toISOString(),
            catalog: (content.document as { servers?: ServerCatalogV1[] } | null)?.servers?.[0] ?? null,
          },
        };
      }),
    });
    times.buildMs.push(performance.now() - started);
    started = performance.now();
    const parsed = getWorkspaceCatalog.output.parse(catalog);
    times.parseMs.push(performance.now() - started);
    started = performance.now();
    JSON.stringify(parsed);
    times.stringifyMs.push(performance.now() - started);
  }
  return {
    loadMs: median(times.loadMs),
    buildMs: median(times.buildMs),
    parseMs: median(times.parseMs),
    stringifyMs: median(times.stringifyMs),
  };
}
