import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdmittedHttpTransport } from '@gatehouse/contracts';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { connectAdmitted, type ConnectOptions } from '../index';

// A lease that carries an access token (OAuth): the token goes as a bearer on every request to
// the leased server, a refusal is retried at most once per connection with a fresh lease's token and only
// when the holder allows it, and nothing is ever sent without it. Against an in-process SDK server behind a
// gate that accepts one token at a time.

interface Seen {
  readonly authorization: string | undefined;
  readonly status: number;
}

async function gatedServer(): Promise<{
  server: Server;
  port: number;
  accepted: { token: string };
  seen: Seen[];
}> {
  const accepted = { token: 'token-1' };
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const authorization = req.headers.authorization;
      if (authorization !== `Bearer ${accepted.token}`) {
        seen.push({ authorization, status: 401 });
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
        return;
      }
      seen.push({ authorization, status: 200 });
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
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, accepted, seen };
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

function leased(port: number, accessToken: string): AdmittedHttpTransport {
  return {
    kind: 'http',
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    addresses: ['127.0.0.1'],
    allowInsecureLoopback: true,
    privateRanges: [],
    // A static header of the same name never replaces the token, and is never sent instead of it.
    headers: { Authorization: 'Bearer static-from-the-definition' },
    principalHeader: null,
    headersHelper: null,
    startupTimeoutMs: null,
    oauth: { accessToken, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
  };
}

const options = (overrides: Partial<ConnectOptions> = {}): ConnectOptions => ({
  serverName: 'signed-in',
  clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
  defaultStartupTimeoutMs: 10_000,
  searchPath: '/usr/bin:/bin',
  ...overrides,
});

const textOf = (result: { content?: unknown }): string =>
  (result.content as { text?: string }[]).map((part) => part.text ?? '').join('');

describe('a lease that carries an access token', () => {
  it("sends the lease's token on every request, over a static header of the same name", async () => {
    const { server, port, seen } = await gatedServer();
    try {
      const connected = await connectAdmitted(leased(port, 'token-1'), options());
      if (!connected.ok) throw new Error(connected.reason);
      expect(textOf(await connected.session.callTool('echo', { message: 'hi' }))).toBe('hi');
      await connected.session.close();
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen.every((request) => request.authorization === 'Bearer token-1')).toBe(true);
    } finally {
      await stop(server);
    }
  });

  it('after a refusal asks for a fresh lease once, however many requests were refused, and never a second time', async () => {
    const { server, port, accepted, seen } = await gatedServer();
    const asked: string[] = [];
    const digests: string[] = [];
    const fresh = ['token-2', 'token-3'];
    try {
      const connected = await connectAdmitted(
        leased(port, 'token-1'),
        options({
          freshAccessToken: ({ accessTokenSha256 }) => {
            digests.push(accessTokenSha256);
            const next = fresh.shift() ?? null;
            asked.push(String(next));
            return Promise.resolve(next);
          },
        }),
      );
      if (!connected.ok) throw new Error(connected.reason);
      const { session } = connected;
      accepted.token = 'token-2';
      const answers = await Promise.all(
        ['a', 'b', 'c'].map((message) => session.callTool('echo', { message })),
      );
      expect(answers.map(textOf)).toEqual(['a', 'b', 'c']);
      expect(asked).toEqual(['token-2']);
      // The holder is told which token was refused by its digest only (leases.issue refusedAccessTokenSha256).
      expect(digests).toEqual([createHash('sha256').update('token-1').digest('base64url')]);
      // Refused again later on this connection: no second fresh lease; the refusal stands, typed.
      accepted.token = 'token-3';
      await expect(session.callTool('echo', { message: 'no' })).rejects.toMatchObject({
        reason: 'auth_refused',
      });
      expect(asked).toEqual(['token-2']);
      await session.close();
      expect(seen.some((request) => request.authorization === undefined)).toBe(false);
      expect(seen.some((request) => request.authorization === 'Bearer static-from-the-definition')).toBe(
        false,
      );
    } finally {
      await stop(server);
    }
  });

  it('without the holder allowing a fresh lease, a refusal is a typed auth failure with one attempt', async () => {
    const { server, port, seen } = await gatedServer();
    try {
      const connected = await connectAdmitted(leased(port, 'token-expired'), options());
      expect(connected).toMatchObject({ ok: false, reason: 'auth_refused', failureClass: 'auth' });
      expect(seen).toEqual([{ authorization: 'Bearer token-expired', status: 401 }]);
    } finally {
      await stop(server);
    }
  });

  it('a fresh lease that brings no token (needs sign-in) leaves the refusal standing, unauthenticated never tried', async () => {
    const { server, port, seen } = await gatedServer();
    let asked = 0;
    try {
      const connected = await connectAdmitted(
        leased(port, 'token-expired'),
        options({
          freshAccessToken: () => {
            asked += 1;
            return Promise.resolve(null);
          },
        }),
      );
      expect(connected).toMatchObject({ ok: false, reason: 'auth_refused' });
      expect(asked).toBe(1);
      expect(seen.map((request) => request.authorization)).toEqual(['Bearer token-expired']);
    } finally {
      await stop(server);
    }
  });
});
