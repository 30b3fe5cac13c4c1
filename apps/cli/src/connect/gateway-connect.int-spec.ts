import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createApiSteps,
  createTestWorkspace,
  testNamespaces,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type ApiSteps,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// The CLI's peers are the real API and the real gateway: a test reaching for its real peers is the one place an
// app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mintApiToken } from '../../../api/src/auth/mint-api-token.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createMember, mintTestToken } from '../../../api/src/commands/testing/surfaces-harness.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { insertTestGatewayToken } from '../../../gateway/src/acceptance/gateway-stack.harness.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { gatewayConfigSchema } from '../../../gateway/src/config/gateway.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createGatewayApp } from '../../../gateway/src/create-gateway-app.js';
import { runGatehouse, startLoopbackApi, type LoopbackApi } from '../test-support/api-on-loopback';
import { startHttpUpstream, type HttpUpstream } from '../test-support/mcp-http-upstream';

// `gatehouse connect` end to end (decision 0115): the MCP Inspector CLI launches
// `node bin/gatehouse.cjs connect <gateway>/mcp/w/<workspace>` as its stdio server and reaches a workspace's
// tools through the real gateway, which reaches them through the real API (introspection, catalog lease,
// transport lease) on a Streamable HTTP upstream. Set up with libs/testing's API steps (decision 0121): a
// managed definition, approved by an approver, its catalog discovered through libs/mcp-client and posted for
// the lease as the worker does.

jest.setTimeout(180_000);

const ROOT = resolve(__dirname, '../../../..');
const BIN = resolve(ROOT, 'bin/gatehouse.cjs');
const INSPECTOR = resolve(ROOT, 'node_modules/.bin/mcp-inspector-cli');
const POOL = 'local';
const UPSTREAM_TOKEN = `upstream-${randomBytes(8).toString('hex')}`;
const run = promisify(execFile);

let api: LoopbackApi;
let upstream: HttpUpstream;
let gateway: NestFastifyApplication;
let gatewayUrl: string;
let workspaceId: string;
const tokens = { admin: '', approver: '', worker: '', agent: '' };
/** This file's own queue and revocation namespaces (its API's; its gateway subscribes under REDIS_KEY_PREFIX). */
const namespaces = testNamespaces();
let steps: ApiSteps<keyof typeof tokens>;

beforeAll(async () => {
  const slug = `acme-${randomBytes(4).toString('hex')}`;
  api = await startLoopbackApi(
    {
      ...namespaces,
      WORKER_POOLS: JSON.stringify({ [POOL]: { tenants: [slug], allowInsecureLoopback: true } }),
    },
    { slug },
  );
  upstream = await startHttpUpstream(UPSTREAM_TOKEN);
  const admin = await createMember(api.db, api.tenant, 'admin');
  const approver = await createMember(api.db, api.tenant, 'approver');
  workspaceId = (await createTestWorkspace(api.db, api.tenant.id)).id;
  tokens.admin = (await mintTestToken(api.db, api.tenant, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(api.db, api.tenant, approver, { kind: 'user' })).secret;
  tokens.agent = (
    await mintTestToken(api.db, api.tenant, admin, {
      kind: 'agent',
      scopes: ['gateway:use'],
      workspaceIds: [workspaceId],
    })
  ).secret;
  tokens.worker = await api.db.withTenant(api.tenant.id, async (tx) => {
    const minted = await mintApiToken(tx, {
      tenantId: api.tenant.id,
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
  });

  steps = createApiSteps({
    api: api.app,
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: {
      clientName: 'gateway-connect-test',
      searchPath: `${dirname(process.execPath)}:/usr/bin:/bin`,
    },
  });
  await steps.defineServers('admin', 'managed', {
    tools: { type: 'http', url: upstream.url, headers: { Authorization: `Bearer ${UPSTREAM_TOKEN}` } },
  });
  await steps.approve('tools');
  await steps.discoverAndSubmit('tools');

  const parsed = parseConfig(gatewayConfigSchema, {
    LOG_LEVEL: 'silent',
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: namespaces.REDIS_KEY_PREFIX,
    API_URL: api.url,
    GATEWAY_TOKEN: await insertTestGatewayToken(api.testDb.ownerUrl, POOL),
    CHILD_PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    CHILD_USER: 'self',
  });
  if (!parsed.ok) throw new Error(parsed.message);
  gateway = await createGatewayApp(parsed.config, {
    logger: createLogger({ name: 'gateway', level: 'silent' }),
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  gatewayUrl = await gateway.getUrl();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.close();
  await upstream?.stop();
  await api?.close();
}, TEST_DATABASE_TIMEOUT_MS);

/** The Inspector CLI with `gatehouse connect` as its stdio server; the token only in the environment it passes on. */
async function inspect(token: string, ...method: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(
    INSPECTOR,
    ['--cli', process.execPath, BIN, 'connect', `${gatewayUrl}/mcp/w/${workspaceId}`, ...method],
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GATEHOUSE_TOKEN: token },
      // One level below a package.json: inspector-cli 1.0.3 checks `existsSync('../package.json')` against the
      // working directory, then imports that path relative to its own module (its own package.json).
      cwd: resolve(ROOT, 'bin'),
      timeout: 60_000,
    },
  );
}

describe('gatehouse connect through the gateway, driven by the MCP Inspector CLI', () => {
  it("lists the workspace's tools as the gateway names them", async () => {
    const { stdout } = await inspect(tokens.agent, '--method', 'tools/list');
    const listed = JSON.parse(stdout) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['mcp__tools__echo', 'mcp__tools__steps', 'mcp__tools__grow']),
    );
  });

  it('calls a tool end to end: Inspector -> stdio bridge -> gateway -> upstream', async () => {
    const { stdout } = await inspect(
      tokens.agent,
      '--method',
      'tools/call',
      '--tool-name',
      'mcp__tools__echo',
      '--tool-arg',
      'text=through the bridge',
    );
    expect(JSON.parse(stdout)).toMatchObject({
      content: [{ type: 'text', text: 'echo: through the bridge' }],
    });
  });

  it('a token the gateway refuses: the Inspector gets no server (the bridge exits at start), the token never shown', async () => {
    const bad = `ghu_${randomBytes(16).toString('hex')}`;
    const failed = await inspect(bad, '--method', 'tools/list').then(
      () => null,
      (error: { stderr?: string }) => error,
    );
    expect(failed).not.toBeNull();
    expect(failed?.stderr ?? '').not.toContain(bad);
  });

  it("an exported entry reaches the server's passthrough under its own names, over http and through connect", async () => {
    const exported = await runGatehouse(
      ['export', '--workspace', workspaceId, '--format', 'claude', '--gateway', gatewayUrl],
      { env: { GATEHOUSE_API_URL: api.url, GATEHOUSE_TOKEN: tokens.admin, HOME: '/nonexistent' } },
    );
    expect(exported.code).toBe(0);
    const entry = (JSON.parse(exported.out.join('\n')) as { mcpServers: Record<string, { url: string }> })
      .mcpServers['tools'];
    expect(entry?.url).toBe(`${gatewayUrl}/mcp/w/${workspaceId}/s/tools`);

    // The http entry as a client uses it: the URL, and the header with the variable expanded.
    const overHttp = await run(
      INSPECTOR,
      [
        '--cli',
        entry?.url ?? '',
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${tokens.agent}`,
        '--method',
        'tools/list',
      ],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cwd: resolve(ROOT, 'bin'), timeout: 60_000 },
    );
    expect(
      (JSON.parse(overHttp.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name),
    ).toContain('echo');

    // What a stdio entry runs: gatehouse connect on the same URL.
    const { stdout } = await run(
      INSPECTOR,
      [
        '--cli',
        process.execPath,
        BIN,
        'connect',
        entry?.url ?? '',
        '--method',
        'tools/call',
        '--tool-name',
        'echo',
        '--tool-arg',
        'text=passthrough',
      ],
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GATEHOUSE_TOKEN: tokens.agent },
        cwd: resolve(ROOT, 'bin'),
        timeout: 60_000,
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ content: [{ type: 'text', text: 'echo: passthrough' }] });
  });

  it('gatehouse catalog shows the approved server and its tools for the same workspace', async () => {
    const table = await runGatehouse(['catalog', '--workspace', workspaceId], {
      env: { GATEHOUSE_API_URL: api.url, GATEHOUSE_TOKEN: tokens.admin, HOME: '/nonexistent' },
    });
    expect(table.code).toBe(0);
    expect(table.out[0]).toMatch(/^SERVER\s+STATE\s+TOOLS\s+COMPLETE\s+STALE\s+FETCHED$/);
    expect(table.out[1]).toMatch(/^tools\s+discovered\s+\d+\s+yes\s+no\s+\d{4}-/);
    expect(table.out.some((line) => /^mcp__tools__echo\s+tools/.test(line))).toBe(true);
  });
});
