// An upstream MCP server behind a bearer token on a loopback port (decisions 0082 and 0098): it names
// its authorization server in protected-resource metadata and serves one `echo` tool, one `greeting` prompt
// and one `note` resource (so prompts/get and resources/read can be refused like tools/call; a stateless SDK
// server per request) to any bearer, unless the test has had it refuse that token (as an issuer that revoked
// it) or every token. Written once here for the worker's and the gateway's specs of an upstream 401 on a
// leased access token.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface TokenRefusingUpstream {
  readonly server: Server;
  /** `http://127.0.0.1:<port>`; the MCP endpoint is `<origin>/mcp`. */
  readonly origin: string;
  /** Digests of the tokens it refuses (`bearerDigestOf`). */
  readonly refused: Set<string>;
  /** Refuses every token (the credential's refreshed token too). */
  readonly refuseAll: { value: boolean };
  /** Every request's bearer digest (null: none) and the answer's status. */
  readonly seen: { digest: string | null; status: number }[];
  readonly close: () => Promise<void>;
}

export interface TokenRefusingUpstreamOptions {
  /** The authorization server its protected-resource metadata names. */
  readonly issuer: string;
  /** The body of a 401 (what a caller must never pass on). */
  readonly refusalBody?: string;
}

/** sha256 of a bearer token, base64url: how the upstream and the specs name a token. */
export const bearerDigestOf = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('base64url');

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

export async function startTokenRefusingUpstream(
  options: TokenRefusingUpstreamOptions,
): Promise<TokenRefusingUpstream> {
  const refusalBody = options.refusalBody ?? '{"error":"invalid_token"}';
  const refused = new Set<string>();
  const refuseAll = { value: false };
  const seen: TokenRefusingUpstream['seen'] = [];
  let origin = '';
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/.well-known/oauth-protected-resource/mcp') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [options.issuer] }));
        return;
      }
      const body = await bodyOf(req);
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
      const digest = bearer === null ? null : bearerDigestOf(bearer);
      if (digest === null || refuseAll.value || refused.has(digest)) {
        seen.push({ digest, status: 401 });
        res
          .writeHead(401, {
            'content-type': 'application/json',
            'www-authenticate': `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          })
          .end(refusalBody);
        return;
      }
      seen.push({ digest, status: 200 });
      const mcp = new McpServer({ name: 'signed', version: '1.0.0' });
      mcp.registerTool('echo', { inputSchema: { message: z.string() } }, ({ message }) => ({
        content: [{ type: 'text', text: message }],
      }));
      mcp.registerPrompt('greeting', { description: 'A greeting' }, () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
      }));
      mcp.registerResource('note', 'signed://note', { mimeType: 'text/plain' }, (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'a note' }],
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
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    origin,
    refused,
    refuseAll,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
