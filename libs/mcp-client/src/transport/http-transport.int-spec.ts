import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { AdmittedHttpTransport } from '@gatehouse/contracts';
import { connectAdmitted, type AdmittedSession, type ConnectOptions } from '../index';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

// Streamable HTTP through the pinned egress fetch, against server-everything (nobody here wrote it) on a loopback
// port, and in-process SDK servers for the edges: header order and the hooks, a header helper refused then
// accepted, a server that refuses the negotiated protocol version, a redirect.

const ROOT_DIR = resolve(__dirname, '../../../..');
const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
const HELPER = join(__dirname, 'test-support/counting-helper.fixture.cjs');
const NODE = process.execPath;
const SEARCH_PATH = `${dirname(NODE)}:/usr/bin:/bin`;

const options = (overrides: Partial<ConnectOptions> = {}): ConnectOptions => ({
  serverName: 'under-test',
  clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
  defaultStartupTimeoutMs: 30_000,
  searchPath: SEARCH_PATH,
  canSwitchUser: false, // children run as the test itself: the checkout may be out of nobody's reach
  ...overrides,
});

function http(port: number, overrides: Partial<AdmittedHttpTransport> = {}): AdmittedHttpTransport {
  return {
    kind: 'http',
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    addresses: ['127.0.0.1'],
    allowInsecureLoopback: true,
    privateRanges: [],
    headers: {},
    principalHeader: null,
    headersHelper: null,
    startupTimeoutMs: null,
    ...overrides,
  };
}

async function connected(
  description: AdmittedHttpTransport,
  overrides: Partial<ConnectOptions> = {},
): Promise<AdmittedSession> {
  const result = await connectAdmitted(description, options(overrides));
  if (!result.ok) throw new Error(`connect failed: ${result.reason} ${result.detail ?? ''}`);
  return result.session;
}

function textOf(result: { content?: unknown }): string {
  return (result.content as { text?: string }[]).map((part) => part.text ?? '').join('');
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

async function freePort(): Promise<number> {
  const { server, port } = await listen(() => undefined);
  await stop(server);
  return port;
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

describe('Streamable HTTP against server-everything', () => {
  let child: ChildProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    child = spawn(NODE, [EVERYTHING, 'streamableHttp'], {
      env: { PATH: SEARCH_PATH, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // Its CLI says so on stderr once it listens.
    let seen = '';
    for await (const chunk of child.stderr as NodeJS.ReadableStream) {
      seen += String(chunk);
      if (seen.includes('listening on port')) break;
    }
    child.stderr?.resume();
  });

  afterAll(async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  });

  it('connects through the pinned fetch, lists and calls a tool', async () => {
    const session = await connected(http(port));
    try {
      expect(session.identity.protocolVersion).toBe('2025-11-25');
      const tools = await session.client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain('echo');
      expect(textOf(await session.callTool('echo', { message: 'over http' }))).toContain('over http');
    } finally {
      await session.close();
    }
  });

  it('connects to the addresses the lease checked, with no resolution of its own', async () => {
    // No DNS knows this name: only the lease's checked address makes it reachable.
    const named = http(port, {
      url: `http://mcp.gatehouse.test:${port}/mcp`,
      origin: `http://mcp.gatehouse.test:${port}`,
    });
    const session = await connected(named);
    try {
      expect(textOf(await session.callTool('echo', { message: 'pinned' }))).toContain('pinned');
    } finally {
      await session.close();
    }
  });
});

describe('Streamable HTTP edges (in-process SDK servers)', () => {
  let root: string;

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'gh-13b-http-')));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const GATE_CHALLENGE = 'Bearer resource_metadata="http://127.0.0.1/prm", scope="mcp:basic"';
  const STEP_UP_CHALLENGE = 'Bearer error="insufficient_scope", scope="mcp:basic mcp:write"';

  /** A stateless SDK server behind a gate that accepts one bearer token at a time and records every request. */
  async function gatedServer(options: { readonly insufficientScopeFor?: string } = {}): Promise<{
    server: Server;
    port: number;
    accepted: { token: string };
    seen: { method: string; rpc: string | null; headers: IncomingHttpHeaders; status: number }[];
  }> {
    const accepted = { token: 'token-1' };
    const seen: { method: string; rpc: string | null; headers: IncomingHttpHeaders; status: number }[] = [];
    const { server, port } = await listen((req, res) => {
      void (async () => {
        const body = await bodyOf(req);
        const rpc =
          typeof body === 'object' && body !== null && 'method' in body ? String(body.method) : null;
        if (req.headers.authorization !== `Bearer ${accepted.token}`) {
          seen.push({ method: req.method ?? '', rpc, headers: req.headers, status: 401 });
          res
            .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': GATE_CHALLENGE })
            .end('{"error":"invalid_token"}');
          return;
        }
        if (rpc === 'tools/call' && req.headers.authorization === `Bearer ${options.insufficientScopeFor}`) {
          seen.push({ method: req.method ?? '', rpc, headers: req.headers, status: 403 });
          res
            .writeHead(403, { 'content-type': 'application/json', 'www-authenticate': STEP_UP_CHALLENGE })
            .end('{"error":"insufficient_scope"}');
          return;
        }
        seen.push({ method: req.method ?? '', rpc, headers: req.headers, status: 200 });
        const mcp = new McpServer({ name: 'gated', version: '1.0.0' });
        mcp.registerTool('echo', { inputSchema: { message: z.string() } }, ({ message }) => ({
          content: [{ type: 'text', text: message }],
        }));
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        await mcp.connect(transport);
        res.on('close', () => void transport.close());
        await transport.handleRequest(req, res, body);
      })();
    });
    return { server, port, accepted, seen };
  }

  const helperRuns = async (): Promise<number> => Number(await readFile(join(root, 'helper-runs'), 'utf8'));

  it('sends static, principal, per-request and authenticator headers in order; the authenticator wins a clash', async () => {
    const { server, port, seen } = await gatedServer();
    const authenticator = {
      headers: () => Promise.resolve({ Authorization: 'Bearer token-1' }),
      refresh: () => Promise.resolve(false),
    };
    try {
      const session = await connected(
        http(port, {
          headers: { Authorization: 'Bearer static', 'X-Static': 'static-value' },
          principalHeader: { name: 'X-Principal', value: 'user-42' },
        }),
        {
          authenticator,
          requestHeaders: ({ body }): Record<string, string> =>
            typeof body === 'object' && body !== null && 'method' in body && body.method === 'tools/call'
              ? { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }
              : {},
        },
      );
      await session.callTool('echo', { message: 'x' });
      await session.close();
      const posts = seen.filter((request) => request.method === 'POST');
      expect(posts.length).toBeGreaterThanOrEqual(2);
      for (const request of posts) {
        expect(request.headers).toMatchObject({
          authorization: 'Bearer token-1',
          'x-static': 'static-value',
          'x-principal': 'user-42',
        });
      }
      const call = posts.find((request) => request.rpc === 'tools/call');
      expect(call?.headers.traceparent).toMatch(/^00-/);
      expect(
        posts
          .filter((request) => request.rpc !== 'tools/call')
          .every((r) => r.headers.traceparent === undefined),
      ).toBe(true);
    } finally {
      await stop(server);
    }
  });

  it('tells the authenticator what the refusing 401 challenged (its WWW-Authenticate), once', async () => {
    const { server, port } = await gatedServer();
    const challenges: (string | null)[] = [];
    let token = 'not-yet';
    const authenticator = {
      headers: () => Promise.resolve({ authorization: `Bearer ${token}` }),
      refresh: (refusal?: { readonly challenge: string | null }) => {
        challenges.push(refusal?.challenge ?? null);
        token = 'token-1';
        return Promise.resolve(true);
      },
    };
    try {
      const session = await connected(http(port), { authenticator });
      await session.callTool('echo', { message: 'x' });
      await session.close();
      expect(challenges).toEqual([GATE_CHALLENGE]);
    } finally {
      await stop(server);
    }
  });

  it('asks the authenticator again on a 403 insufficient_scope (step-up), with its challenge, once', async () => {
    const { server, port, accepted } = await gatedServer({ insufficientScopeFor: 'token-1' });
    const challenges: (string | null)[] = [];
    let token = 'token-1';
    const authenticator = {
      headers: () => Promise.resolve({ authorization: `Bearer ${token}` }),
      refresh: (refusal?: { readonly challenge: string | null }) => {
        challenges.push(refusal?.challenge ?? null);
        token = 'token-2';
        accepted.token = 'token-2';
        return Promise.resolve(true);
      },
    };
    try {
      const session = await connected(http(port), { authenticator });
      const result = await session.callTool('echo', { message: 'x' });
      await session.close();
      expect(result.content).toEqual([{ type: 'text', text: 'x' }]);
      expect(challenges).toEqual([STEP_UP_CHALLENGE]);
    } finally {
      await stop(server);
    }
  });

  const helperDescription = (port: number): AdmittedHttpTransport =>
    http(port, {
      headersHelper: {
        argv: [NODE, HELPER],
        authority: {
          commands: [[NODE, HELPER]],
          ceiling: [[NODE]],
          allowedRoots: [root],
          envKeys: [],
          runAs: null,
        },
      },
    });

  it('runs a header helper once per connection, once more after a refusal however many requests it refused, never a third time', async () => {
    await rm(join(root, 'helper-runs'), { force: true });
    const { server, port, accepted } = await gatedServer();
    try {
      // token-1 (the first run) is accepted for the handshake.
      const session = await connected(helperDescription(port), { headerHelpersAllowed: true });
      expect(await helperRuns()).toBe(1);
      await session.callTool('echo', { message: 'one' });
      expect(await helperRuns()).toBe(1);
      // The server now refuses token-1: three calls refused together share one fresh run (token-2).
      accepted.token = 'token-2';
      const answers = await Promise.all(
        ['a', 'b', 'c'].map((message) => session.callTool('echo', { message })),
      );
      expect(answers.map(textOf)).toEqual(['a', 'b', 'c']);
      expect(await helperRuns()).toBe(2);
      // Refused again: no third run on this connection; the refusal stands, typed.
      accepted.token = 'token-3';
      await expect(session.callTool('echo', { message: 'no' })).rejects.toMatchObject({
        reason: 'auth_refused',
      });
      expect(await helperRuns()).toBe(2);
      await session.close();
    } finally {
      await stop(server);
    }
  });

  it('tells its process-group observer of each header-helper run, while it runs', async () => {
    await rm(join(root, 'helper-runs'), { force: true });
    const { server, port } = await gatedServer();
    const seen: string[] = [];
    try {
      const session = await connected(helperDescription(port), {
        headerHelpersAllowed: true,
        processGroups: { opened: (pgid) => seen.push(`+${pgid}`), closed: (pgid) => seen.push(`-${pgid}`) },
      });
      await session.close();
      const [opened, closed] = seen;
      expect(seen).toHaveLength(2);
      expect(opened).toMatch(/^\+\d+$/);
      expect(closed).toBe(`-${opened?.slice(1) ?? ''}`);
    } finally {
      await stop(server);
    }
  });

  it.each(['X-Principal', 'x-principal', 'X-PRINCIPAL'])(
    'refuses a server whose static header %s is its principal header, at connect, sending nothing',
    async (staticName) => {
      const { server, port, seen } = await gatedServer();
      try {
        const result = await connectAdmitted(
          http(port, {
            headers: { [staticName]: 'admin' },
            principalHeader: { name: 'X-Principal', value: 'user-42' },
          }),
          options({
            authenticator: { headers: () => Promise.resolve({}), refresh: () => Promise.resolve(false) },
          }),
        );
        expect(result).toEqual({
          ok: false,
          reason: 'principal_header_collision',
          failureClass: 'config',
          server: 'under-test',
          origin: `http://127.0.0.1:${port}`,
          detail: null,
        });
        expect(seen).toEqual([]);
      } finally {
        await stop(server);
      }
    },
  );

  it('refuses a header helper the pool does not allow, by name, without running it', async () => {
    await rm(join(root, 'helper-runs'), { force: true });
    const { server, port } = await gatedServer();
    try {
      const result = await connectAdmitted(helperDescription(port), options({ headerHelpersAllowed: false }));
      expect(result).toMatchObject({
        ok: false,
        reason: 'authenticator_failed',
        failureClass: 'auth',
        server: 'under-test',
        detail: 'header_helper_header_helpers_not_allowed_on_pool',
      });
      await expect(readFile(join(root, 'helper-runs'), 'utf8')).rejects.toThrow();
    } finally {
      await stop(server);
    }
  });

  it.each([
    [
      'answers with a protocol version we do not speak',
      (id: unknown, res: ServerResponse) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            result: {
              protocolVersion: '2026-07-28',
              capabilities: {},
              serverInfo: { name: 'future', version: '2' },
            },
          }),
        ),
    ],
    [
      'refuses our version with an HTTP 400',
      (id: unknown, res: ServerResponse) =>
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            error: { code: -32000, message: 'Bad Request: Unsupported protocol version: 2025-11-25' },
          }),
        ),
    ],
  ])('disconnects a server that %s and reports it by name', async (_label, answer) => {
    const { server, port } = await listen((req, res) => {
      void bodyOf(req).then((body) => {
        if (req.method !== 'POST') return void res.writeHead(405).end();
        answer((body as { id?: unknown }).id ?? null, res);
      });
    });
    try {
      const result = await connectAdmitted(http(port), options({ serverName: 'future-only' }));
      expect(result).toMatchObject({
        ok: false,
        reason: 'protocol_version_refused',
        failureClass: 'protocol',
        server: 'future-only',
        origin: `http://127.0.0.1:${port}`,
      });
    } finally {
      await stop(server);
    }
  });

  it('refuses a redirect instead of following it', async () => {
    const { server, port } = await listen((req, res) => {
      req.resume();
      res.writeHead(307, { location: 'http://127.0.0.1:1/elsewhere' }).end();
    });
    try {
      expect(await connectAdmitted(http(port), options())).toMatchObject({
        ok: false,
        reason: 'egress_failed',
        detail: 'redirect_refused',
        failureClass: 'config',
      });
    } finally {
      await stop(server);
    }
  });
});
