import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import {
  callersOf,
  COMMANDS,
  MCP_HELP_TOOL,
  mcpToolNameOf,
  mcpWithheldReason,
  surfacesOf,
} from '@gatehouse/commands';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
} from '@gatehouse/testing';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mintApiToken } from '../auth/mint-api-token';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';
import { seedCrossTenantWorld, signIn, type CrossTenantWorld } from '../cross-tenant.fixtures';
import { ADMIN_MCP_PATH } from './admin-mcp-route';

// Admin over MCP (decisions 0112, 0145) through the real API (createApiApp listening on a port, real
// Postgres and Redis) and real MCP clients of both protocol eras: the SDK 1.32 client, the v2 client (2026-07-28
// and 2025-11-25) and the Inspector CLI. One tool per offered
// command, refusals as isError results with the problem, non-offered commands refused by name, scopes as on
// REST, the refused-writes audit, and the HTTP edges before the transport.

jest.setTimeout(120_000);
const run = promisify(execFile);
const INSPECTOR = `${process.cwd()}/node_modules/.bin/mcp-inspector-cli`;
const INSPECTOR_BUILD = `${process.cwd()}/node_modules/@modelcontextprotocol/inspector-cli/build`;

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let world: CrossTenantWorld;
let url: string;
let agentSecret: string;
let readerSecret: string;
const clients: Client[] = [];

const OFFERED = COMMANDS.filter((c) => surfacesOf(c).mcp !== null);

async function mint(kind: 'agent' | 'user', scopes: string[]): Promise<string> {
  const a = world.a;
  return db.withTenant(a.tenantId, async (tx) => {
    const minted = await mintApiToken(tx, {
      tenantId: a.tenantId,
      createdById: a.owner.id,
      name: `admin-mcp ${kind}`,
      grant: {
        kind,
        userId: kind === 'user' ? a.owner.id : null,
        scopes: scopes as never,
        workspaceIds: kind === 'agent' ? [a.workspace.id] : [],
        pool: null,
      },
      expiresAt: null,
    });
    return minted.secret;
  });
}

async function connect(secret: string): Promise<Client> {
  const client = new Client({ name: 'admin-mcp-spec', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  );
  clients.push(client);
  return client;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  world = await seedCrossTenantWorld(db);
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'admin-mcp', level: 'warn', destination: quiet }),
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}${ADMIN_MCP_PATH}`;
  agentSecret = await mint('agent', ['catalog:read', 'gateway:use']);
  readerSecret = await mint('user', ['workspaces:read']);
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

const owner = () => world.a.token.secret;

async function auditActions(): Promise<{ action: string; data: Record<string, unknown> }[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/v1/audit-events?limit=200&action=commands.refused',
    headers: { authorization: `Bearer ${owner()}` },
  });
  expect(response.statusCode).toBe(200);
  return (JSON.parse(response.body) as { items: { action: string; data: Record<string, unknown> }[] }).items;
}

describe('tools/list through the SDK client', () => {
  it('lists command_help and one tool per offered command, with its schemas and hints, and none withheld', async () => {
    const client = await connect(owner());
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names[0]).toBe(MCP_HELP_TOOL);
    expect(names.slice(1).sort()).toEqual(OFFERED.map((c) => mcpToolNameOf(c.name)).sort());
    for (const command of COMMANDS.filter((c) => mcpWithheldReason(c) !== null))
      expect(names).not.toContain(mcpToolNameOf(command.name));
    for (const command of OFFERED) {
      const tool = tools.find((t) => t.name === mcpToolNameOf(command.name));
      const offer = surfacesOf(command).mcp;
      expect(tool?.inputSchema.type).toBe('object');
      expect(tool?.outputSchema?.type).toBe('object');
      expect(tool?.annotations).toMatchObject({
        readOnlyHint: offer?.readOnly,
        destructiveHint: offer?.destructive,
        idempotentHint: offer?.idempotent,
      });
      expect(tool?.description).toContain(`scope \`${command.scope}\``);
    }
    const create = tools.find((t) => t.name === 'command_workspaces_create');
    expect(create?.inputSchema).toMatchObject({
      required: expect.arrayContaining(['name']),
      additionalProperties: false,
    });
  });
});

describe('tools/call through the SDK client', () => {
  it('answers a read with structured content and the same JSON as text', async () => {
    const client = await connect(owner());
    const result = (await client.callTool({
      name: 'command_workspaces_list',
      arguments: {},
    })) as CallToolResult;
    expect(result.isError).toBeUndefined();
    const structured = result.structuredContent as { items: { id: string; name: string }[] };
    expect(structured.items.map((w) => w.id)).toContain(world.a.workspace.id);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(structured);
  });

  it('runs a write through the use case, and the REST read sees it', async () => {
    const client = await connect(owner());
    const name = `mcp-made-${randomUUID().slice(0, 8)}`;
    const created = (await client.callTool({
      name: 'command_workspaces_create',
      arguments: { name },
    })) as CallToolResult;
    expect(created.isError).toBeUndefined();
    const id = (created.structuredContent as { id: string }).id;
    const read = await app.inject({
      method: 'GET',
      url: `/v1/workspaces/${id}`,
      headers: { authorization: `Bearer ${owner()}` },
    });
    expect(JSON.parse(read.body)).toMatchObject({ id, name });
    // Audited with its caller, as REST's call is.
    const audit = await app.inject({
      method: 'GET',
      url: '/v1/audit-events?limit=200&action=workspaces.create',
      headers: { authorization: `Bearer ${owner()}` },
    });
    const rows = (JSON.parse(audit.body) as { items: Record<string, unknown>[] }).items;
    expect(rows.filter((row) => JSON.stringify(row).includes(id))).toEqual([
      expect.objectContaining({
        actorType: 'user',
        actorId: world.a.owner.id,
        tokenKind: 'user',
        outcome: 'success',
      }),
    ]);
  });

  it('answers a refusal as isError with the problem code in structuredContent', async () => {
    const client = await connect(owner());
    const missing = (await client.callTool({
      name: 'command_workspaces_get',
      arguments: { workspaceId: randomUUID() },
    })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ code: 'not_found', status: 404 });
    expect((missing.content[0] as { text: string }).text).toContain('not_found');

    const invalid = (await client.callTool({
      name: 'command_workspaces_get',
      arguments: { workspaceId: 'not-a-uuid', extra: 1 },
    })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ code: 'validation_failed', status: 400 });
    expect((invalid.structuredContent as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(
      expect.arrayContaining(['workspaceId']),
    );
  });

  it('refuses a non-offered command called by name (JSON-RPC -32602 unknown_tool) and audits a withheld write', async () => {
    const client = await connect(owner());
    for (const name of [
      'command_approvals_requests_decide',
      'command_tokens_create',
      'command_hostPolicy_put',
      'command_invitations_create',
      'command_oauth_signIn_start',
      'tokens.create',
      'command_no_such_thing',
    ]) {
      const refusal = await client.callTool({ name, arguments: {} }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(McpError);
      expect(refusal).toMatchObject({ code: -32602, data: { reason: 'unknown_tool' } });
    }
    const rows = await auditActions();
    expect(rows.map((r) => r.data)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ command: 'approvals.requests.decide', code: 'not_found' }),
      ]),
    );
  });

  it('answers command_help with what this caller may use', async () => {
    const client = await connect(owner());
    const help = (await client.callTool({ name: MCP_HELP_TOOL, arguments: {} })) as CallToolResult;
    const structured = help.structuredContent as { caller: { kind: string }; tools: { name: string }[] };
    expect(structured.caller.kind).toBe('user');
    expect(structured.tools.map((t) => t.name).sort()).toEqual(
      OFFERED.map((c) => mcpToolNameOf(c.name)).sort(),
    );
  });
});

describe('scopes as on REST', () => {
  it('shows an agent token only what its scopes allow, refuses the rest by scope and audits a refused write', async () => {
    const client = await connect(agentSecret);
    const { tools } = await client.listTools();
    // Of the offered commands, only servers.status needs catalog:read, and it takes people only (session, user).
    const allowed = OFFERED.filter(
      (c) => ['catalog:read', 'gateway:use'].includes(c.scope) && callersOf(c).includes('agent'),
    ).map((c) => mcpToolNameOf(c.name));
    expect(allowed).toEqual([]);
    expect(tools.map((t) => t.name)).toEqual([MCP_HELP_TOOL]);
    const status = (await client.callTool({
      name: 'command_servers_status',
      arguments: { workspaceId: world.a.workspace.id, serverName: 'github' },
    })) as CallToolResult;
    expect(status.structuredContent).toMatchObject({ code: 'forbidden_caller' });

    const help = (await client.callTool({ name: MCP_HELP_TOOL, arguments: {} })) as CallToolResult;
    expect(help.structuredContent).toMatchObject({
      caller: { kind: 'agent', scopes: ['catalog:read', 'gateway:use'] },
    });

    const read = (await client.callTool({
      name: 'command_workspaces_list',
      arguments: {},
    })) as CallToolResult;
    expect(read.structuredContent).toMatchObject({ code: 'forbidden_scope' });
    const write = (await client.callTool({
      name: 'command_workspaces_create',
      arguments: { name: 'agent-made' },
    })) as CallToolResult;
    expect(write.isError).toBe(true);
    expect(write.structuredContent).toMatchObject({ code: 'forbidden_scope', status: 403 });
    const rows = await auditActions();
    expect(rows.map((r) => r.data)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ command: 'workspaces.create', code: 'forbidden_scope' }),
      ]),
    );
  });

  it('shows a user token with one scope its reads only', async () => {
    const client = await connect(readerSecret);
    const { tools } = await client.listTools();
    const expected = OFFERED.filter((c) => c.scope === 'workspaces:read').map((c) => mcpToolNameOf(c.name));
    expect(tools.map((t) => t.name).sort()).toEqual([MCP_HELP_TOOL, ...expected].sort());
    const listed = (await client.callTool({
      name: 'command_workspaces_list',
      arguments: {},
    })) as CallToolResult;
    expect(listed.isError).toBeUndefined();
  });
});

/** A v2 SDK client (@modelcontextprotocol/client 2.4) with its negotiation mode, and what it POSTed, in order. */
async function connectV2(
  secret: string,
  mode: 'legacy' | 'auto' | { pin: string },
): Promise<{ client: V2Client; wire: { method: string; status: number; contentType: string | null }[] }> {
  const client = new V2Client({ name: 'admin-mcp-v2', version: '0.0.0' }, { versionNegotiation: { mode } });
  const wire: { method: string; status: number; contentType: string | null }[] = [];
  await client.connect(
    new V2Transport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
      fetch: async (target, init) => {
        const answer = await fetch(target, init);
        if (init?.method === 'POST' && typeof init.body === 'string')
          wire.push({
            method: (JSON.parse(init.body) as { method?: string }).method ?? '(response)',
            status: answer.status,
            contentType: answer.headers.get('content-type'),
          });
        return answer;
      },
    }),
  );
  return { client, wire };
}

describe('clients of both protocol eras (@modelcontextprotocol/client 2.4) on the one URL', () => {
  it.each([
    ['auto', 'auto' as const],
    ['pinned to 2026-07-28', { pin: '2026-07-28' }],
  ])(
    '%s: settles on 2026-07-28 (server/discover, no initialize), lists and calls tools, refusals as before',
    async (_label, mode) => {
      const { client, wire } = await connectV2(owner(), mode);
      try {
        expect(wire[0]).toMatchObject({ method: 'server/discover', status: 200 });
        expect(wire.map((posted) => posted.method)).not.toContain('initialize');
        expect(client.getProtocolEra()).toBe('modern');
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        expect(client.getServerVersion()).toMatchObject({ name: 'gatehouse-admin' });
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(
          expect.arrayContaining([MCP_HELP_TOOL, 'command_workspaces_get', 'command_workspaces_list']),
        );
        const got = await client.callTool({
          name: 'command_workspaces_get',
          arguments: { workspaceId: world.a.workspace.id },
        });
        expect(got.isError).toBeFalsy();
        expect(got.structuredContent).toMatchObject({ id: world.a.workspace.id });
        const missing = await client.callTool({
          name: 'command_workspaces_get',
          arguments: { workspaceId: randomUUID() },
        });
        expect(missing).toMatchObject({
          isError: true,
          structuredContent: { code: 'not_found', status: 404 },
        });
        // A withheld command is the same JSON-RPC error in either era.
        await expect(client.callTool({ name: 'command_tokens_create', arguments: {} })).rejects.toMatchObject(
          {
            code: -32602,
            data: { reason: 'unknown_tool' },
          },
        );
        // Every exchange is answered JSON (nothing is streamed), without a session.
        for (const posted of wire) expect(posted.contentType).toContain('application/json');
      } finally {
        await client.close();
      }
    },
  );

  it('over 2026-07-28, shows an agent token only what its scopes allow, as on 2025', async () => {
    const { client } = await connectV2(agentSecret, { pin: '2026-07-28' });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([MCP_HELP_TOOL]);
      const write = await client.callTool({
        name: 'command_workspaces_create',
        arguments: { name: 'agent-2026' },
      });
      expect(write).toMatchObject({
        isError: true,
        structuredContent: { code: 'forbidden_scope', status: 403 },
      });
    } finally {
      await client.close();
    }
  });

  it('legacy (2025-11-25): initializes, lists and calls tools, and gets a refusal as a result', async () => {
    const { client, wire } = await connectV2(owner(), 'legacy');
    try {
      expect(wire[0]?.method).toBe('initialize');
      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining([MCP_HELP_TOOL, 'command_workspaces_get']),
      );
      const got = await client.callTool({
        name: 'command_workspaces_get',
        arguments: { workspaceId: world.a.workspace.id },
      });
      expect(got.structuredContent).toMatchObject({ id: world.a.workspace.id });
      // The output schema admits the problem, so a client that validates error results too accepts it.
      const missing = await client.callTool({
        name: 'command_workspaces_get',
        arguments: { workspaceId: randomUUID() },
      });
      expect(missing).toMatchObject({ isError: true, structuredContent: { code: 'not_found' } });
      // The 2025 leg answers JSON, not a stream, as before the move to SDK v2.
      for (const posted of wire.filter((p) => p.status === 200))
        expect(posted.contentType).toContain('application/json');
    } finally {
      await client.close();
    }
  });
});

describe('the MCP Inspector CLI', () => {
  const inspector = async (secret: string, ...args: string[]) => {
    const { stdout } = await run(
      INSPECTOR,
      ['--cli', url, '--transport', 'http', '--header', `Authorization: Bearer ${secret}`, ...args],
      // The CLI looks for its own package.json as `../package.json` from the working directory: run it from its
      // build folder, or it imports a path that does not exist (inspector-cli 1.0.3).
      { timeout: 60_000, cwd: INSPECTOR_BUILD },
    );
    return JSON.parse(stdout) as Record<string, unknown>;
  };

  it('lists the admin tools and calls one', async () => {
    const listed = (await inspector(owner(), '--method', 'tools/list')) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([MCP_HELP_TOOL, 'command_workspaces_list']),
    );
    const called = (await inspector(
      owner(),
      '--method',
      'tools/call',
      '--tool-name',
      'command_workspaces_get',
      '--tool-arg',
      `workspaceId=${world.a.workspace.id}`,
    )) as { structuredContent: { id: string } };
    expect(called.structuredContent.id).toBe(world.a.workspace.id);
  });
});

describe('before the transport', () => {
  const post = (headers: Record<string, string>, payload: string) =>
    app.inject({
      method: 'POST',
      url: ADMIN_MCP_PATH,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      payload,
    });
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

  it('wants a bearer user or agent token: none, a session cookie, a bad one or a worker token are refused', async () => {
    const none = await post({}, list);
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="gatehouse"');
    expect(JSON.parse(none.body)).toMatchObject({ code: 'unauthenticated' });
    const session = await signIn(async (r) => {
      const response = await app.inject({
        method: r.method as 'POST',
        url: r.url,
        headers: r.headers,
        payload: r.payload,
      });
      return { statusCode: response.statusCode, body: response.body, headers: response.headers };
    }, world.a);
    expect((await post(session, list)).statusCode).toBe(401);
    expect((await post({ authorization: 'Bearer ghu_not-a-real-token' }, list)).statusCode).toBe(401);
    const worker = await post({ authorization: `Bearer ${world.a.worker.secret}` }, list);
    expect(worker.statusCode).toBe(403);
    expect(JSON.parse(worker.body)).toMatchObject({ code: 'forbidden_caller' });
  });

  it('answers GET and DELETE 405 (stateless) and malformed JSON a JSON-RPC parse error', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await app.inject({
        method,
        url: ADMIN_MCP_PATH,
        headers: { authorization: `Bearer ${owner()}` },
      });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('POST');
    }
    const auth = { authorization: `Bearer ${owner()}` };
    for (const payload of ['{"jsonrpc":', '{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}']) {
      const response = await post(auth, payload);
      expect(response.statusCode).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    }
    const empty = await app.inject({
      method: 'POST',
      url: ADMIN_MCP_PATH,
      headers: { ...auth, accept: 'application/json, text/event-stream' },
    });
    // No body and no content type: the SDK transport's own refusal, as JSON-RPC (nothing waits for a body).
    expect(empty.statusCode).toBe(415);
    expect(JSON.parse(empty.body)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    const text = await app.inject({
      method: 'POST',
      url: ADMIN_MCP_PATH,
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: list,
    });
    expect(text.statusCode).toBe(415);
    const notRpc = await post(auth, JSON.stringify({ hello: 'world' }));
    expect(notRpc.statusCode).toBe(400);
    expect(JSON.parse(notRpc.body)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    const served = await post(auth, list);
    expect(served.statusCode).toBe(200);
    expect(served.headers['mcp-session-id']).toBeUndefined();
    // A 2025 request is answered JSON, not an event stream.
    expect(served.headers['content-type']).toContain('application/json');
    expect(JSON.parse(served.body)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { tools: expect.any(Array) },
    });
  });
});
