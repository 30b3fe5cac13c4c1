// The whole stack the gateway's acceptance specs run against (docs/architecture/gateway.md), set up once
// here: the real API on a loopback port (its own database, Redis, its own QUEUE_PREFIX), two tenants (acme:
// an admin, an approver and two members, alice and bob; globex: an owner), acme's workspace and a second one,
// globex's, the worker and gateway tokens and an agent token bound to the workspace, a HostPolicy and pool
// ceiling allowing exactly the stdio commands given, and the gateway app on another port (started per spec,
// with its own env). Servers are defined, approved and discovered as the worker does (libs/mcp-client
// discovery posted with catalog.submit), for the workspace or for one principal, with the API-side steps of
// libs/testing (createApiSteps, decision 0121), which the API's and the worker's specs take against their own
// API too. Each stack has its own QUEUE_PREFIX and REDIS_KEY_PREFIX (testApiEnv).
import { randomUUID } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { dirname, join, resolve } from 'node:path';
import type { CatalogDocumentV1, Scope } from '@gatehouse/contracts';
import { createDatabase, insertGatewayToken, type Database } from '@gatehouse/db';
import { createLogger, parseConfig, type Logger } from '@gatehouse/platform';
import {
  createApiSteps,
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  testApiEnv,
  testRedisUrl,
  type ApiAnswer,
  type TestDatabase,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// The gateway's peer is the real API (introspection, catalog, leases, revocations): a test reaching for its real
// peer is the one place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mintTokenSecret } from '../../../api/src/auth/api-token-format.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mintApiToken } from '../../../api/src/auth/mint-api-token.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createMember, mintTestToken } from '../../../api/src/commands/testing/surfaces-harness.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../../api/src/create-api-app.js';
import { gatewayConfigSchema } from '../config/gateway.config.js';
import { createGatewayApp } from '../create-gateway-app.js';
import { GATEWAY_ACTIVITY, GATEWAY_REVOCATIONS } from '../endpoint/gateway-tokens.js';
import type { GatewayActivityRecorder } from '../activity/gateway-activity-recorder.js';
import type { GatewayRevocationsHolder } from '../revocations/gateway-revocations.holder.js';
import { HeldLeases } from '@gatehouse/lease-holder';

export const ROOT_DIR = resolve(__dirname, '../../../..');
export const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
export const CHILD_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;
const POOL = 'local';

export type Who = 'admin' | 'approver' | 'alice' | 'bob' | 'globexOwner' | 'worker' | 'gateway' | 'agent';

export interface GatewayStackOptions {
  /** Exact argv prefixes the pool's ceiling and acme's HostPolicy both allow for stdio servers. */
  readonly stdioCommands: readonly (readonly string[])[];
  readonly name: string;
  /** The pool's env allowlist for stdio definitions (WORKER_POOLS childEnvKeys); absent: the default one. */
  readonly childEnvKeys?: readonly string[];
}

export type Answer = ApiAnswer;

export interface StartedGateway {
  readonly app: NestFastifyApplication;
  /** The gateway's base URL (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** The gateway's providers a spec drives or reads (null without GATEWAY_TOKEN). */
  readonly activity: GatewayActivityRecorder | null;
  readonly revocations: GatewayRevocationsHolder | null;
  readonly held: HeldLeases;
  /** The workspace endpoint of a workspace (acme's main one by default). */
  readonly endpoint: (workspace?: string) => URL;
  /** Closes this gateway now (the stack's close skips it then). */
  readonly close: () => Promise<void>;
}

export interface StartGatewayOptions {
  /** The gateway's logger (silent by default), e.g. one writing to a sink a spec reads. */
  readonly logger?: Logger;
}

export interface GatewayStack {
  readonly db: Database;
  readonly api: NestFastifyApplication;
  readonly apiUrl: string;
  readonly queuePrefix: string;
  /** REDIS_KEY_PREFIX of the API and every gateway of this stack: no other spec's revocations or activity. */
  readonly redisKeyPrefix: string;
  readonly pool: string;
  /** A directory for files the stdio children may use (inside the pool's allowed roots). */
  readonly root: string;
  readonly acme: TestTenant;
  readonly globex: TestTenant;
  readonly users: { readonly alice: TestUser; readonly bob: TestUser; readonly admin: TestUser };
  readonly workspaceId: string;
  readonly otherWorkspaceId: string;
  readonly globexWorkspaceId: string;
  readonly tokens: Readonly<Record<Who, string>>;
  rest(who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<Answer>;
  /** `rest`, throwing with the body unless the status is the one given. */
  expectStatus(
    who: Who,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    status: number,
    payload?: unknown,
  ): Promise<Answer>;
  /** Writes a definition source (managed by the admin, or a member's own user tier). */
  defineServers(who: Who, tier: 'managed' | 'user', mcpServers: Record<string, unknown>): Promise<void>;
  /** Opens a review of the server in a view (asked by `asker`) and lets the approver approve it: the approval id. */
  approve(serverName: string, view?: 'workspace' | 'principal', asker?: Who): Promise<string>;
  /** Discovers a leased server through libs/mcp-client and posts its catalog for the lease, as the worker does. */
  discoverAndSubmit(serverName: string, principalUserId?: string): Promise<CatalogDocumentV1>;
  startGateway(env?: Record<string, string>, options?: StartGatewayOptions): Promise<StartedGateway>;
  close(): Promise<void>;
}

export interface CapturedLogs {
  /** A logger at debug writing into this capture (a gateway's: `startGateway(env, { logger })`). */
  logger(): Logger;
  /** Everything logged into it so far. */
  text(): string;
}

/** What gateways logged, kept in memory at debug: a spec proves no secret is in it. */
export function captureLogs(name = 'gateway'): CapturedLogs {
  let logged = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString('utf8');
      done();
    },
  });
  return { logger: () => createLogger({ name, level: 'debug', destination: sink }), text: () => logged };
}

/** A real SDK client on a workspace endpoint with a bearer token. */
export async function connectSdkClient(endpoint: URL, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'gateway-acceptance', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

/** A gateway token as the operator's CLI makes one (on `pool`, with the gateway's scopes): its secret. */
export async function insertTestGatewayToken(ownerUrl: string, pool = POOL): Promise<string> {
  const minted = mintTokenSecret('gateway');
  await insertGatewayToken({
    ownerUrl,
    name: 'gateway local',
    scopes: [
      'tokens:introspect',
      'leases:write',
      'catalog:read',
      'revocations:read',
      'catalog:refresh',
    ] satisfies Scope[],
    pool,
    secretHash: minted.secretHash,
    prefix: minted.prefix,
    expiresAt: null,
  });
  return minted.secret;
}

export async function startGatewayStack(options: GatewayStackOptions): Promise<GatewayStack> {
  const silent = createLogger({ name: `${options.name}-test`, level: 'silent' });
  const root = await realpath(await mkdtemp(join(tmpdir(), `gh-${options.name}-`)));
  const testDb: TestDatabase = await createTestDatabase();
  const db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  const acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const globex = await createTestTenant(db, { slug: `globex-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  const alice = await createMember(db, acme, 'member');
  const bob = await createMember(db, acme, 'member');
  const globexOwner = await createMember(db, globex, 'owner');
  const workspaceId = (await createTestWorkspace(db, acme.id)).id;
  const otherWorkspaceId = (await createTestWorkspace(db, acme.id)).id;
  const globexWorkspaceId = (await createTestWorkspace(db, globex.id)).id;
  const userToken = async (tenant: TestTenant, user: TestUser) =>
    (await mintTestToken(db, tenant, user, { kind: 'user' })).secret;
  const tokens: Record<Who, string> = {
    admin: await userToken(acme, admin),
    approver: await userToken(acme, approver),
    alice: await userToken(acme, alice),
    bob: await userToken(acme, bob),
    globexOwner: await userToken(globex, globexOwner),
    agent: (
      await mintTestToken(db, acme, admin, {
        kind: 'agent',
        scopes: ['gateway:use'],
        workspaceIds: [workspaceId],
      })
    ).secret,
    worker: await db.withTenant(acme.id, async (tx) => {
      const minted = await mintApiToken(tx, {
        tenantId: acme.id,
        createdById: admin.id,
        name: 'worker local',
        grant: {
          kind: 'worker',
          userId: null,
          scopes: ['leases:write', 'snapshots:write', 'revocations:read', 'catalog:read'],
          workspaceIds: [],
          pool: POOL,
        },
        expiresAt: null,
      });
      return minted.secret;
    }),
    gateway: await insertTestGatewayToken(testDb.ownerUrl),
  };

  const apiEnv = testApiEnv(testDb.appUrl, {
    WORKER_POOLS: JSON.stringify({
      [POOL]: {
        tenants: [acme.slug, globex.slug],
        stdio: true,
        commandCeiling: options.stdioCommands.map((argv) => [...argv]),
        allowedRoots: [root],
        allowInsecureLoopback: true,
        ...(options.childEnvKeys === undefined ? {} : { childEnvKeys: [...options.childEnvKeys] }),
      },
    }),
  });
  const { QUEUE_PREFIX: queuePrefix, REDIS_KEY_PREFIX: redisKeyPrefix } = apiEnv;
  const parsed = parseConfig(apiConfigSchema, apiEnv);
  if (!parsed.ok) throw new Error(parsed.message);
  const api = await createApiApp(parsed.config, { logger: silent });
  await api.listen({ host: '127.0.0.1', port: 0 });
  const apiUrl = await api.getUrl();
  const gateways = new Set<NestFastifyApplication>();

  const steps = createApiSteps<Who>({
    api,
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: { clientName: `${options.name}-discovery`, searchPath: CHILD_PATH },
  });
  await steps.putHostPolicy(options.stdioCommands);

  const stack: GatewayStack = {
    db,
    api,
    apiUrl,
    queuePrefix,
    redisKeyPrefix,
    pool: POOL,
    root,
    acme,
    globex,
    users: { alice, bob, admin },
    workspaceId,
    otherWorkspaceId,
    globexWorkspaceId,
    tokens,
    rest: steps.rest,
    expectStatus: steps.expectStatus,
    defineServers: (who, tier, mcpServers) => steps.defineServers(who, tier, mcpServers),
    approve: async (serverName, view, asker) => (await steps.approve(serverName, view, asker)).approvalId,
    discoverAndSubmit: steps.discoverAndSubmit,
    async startGateway(env = {}, { logger = silent } = {}) {
      const config = parseConfig(gatewayConfigSchema, {
        LOG_LEVEL: 'silent',
        REDIS_URL: testRedisUrl(),
        REDIS_KEY_PREFIX: redisKeyPrefix,
        API_URL: apiUrl,
        GATEWAY_TOKEN: tokens.gateway,
        CHILD_PATH,
        CHILD_USER: 'self',
        CHILD_CLOSE_GRACE_MS: '500',
        ...env,
      });
      if (!config.ok) throw new Error(config.message);
      const app = await createGatewayApp(config.config, { logger });
      await app.listen({ host: '127.0.0.1', port: 0 });
      gateways.add(app);
      const url = await app.getUrl();
      return {
        app,
        url,
        activity: app.get<GatewayActivityRecorder | null>(GATEWAY_ACTIVITY),
        revocations: app.get<GatewayRevocationsHolder | null>(GATEWAY_REVOCATIONS),
        held: app.get(HeldLeases),
        endpoint: (workspace = workspaceId) => new URL(`/mcp/w/${workspace}`, url),
        close: async () => {
          gateways.delete(app);
          await app.close();
        },
      };
    },
    async close() {
      for (const gateway of gateways) await gateway.close();
      await api.close();
      await db.close();
      await testDb.drop();
      await rm(root, { recursive: true, force: true });
    },
  };
  return stack;
}
