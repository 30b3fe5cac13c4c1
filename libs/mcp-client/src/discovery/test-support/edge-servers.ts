import { Client, type Transport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

// MCP servers on the SDK's low-level `Server` (McpServer never returns nextCursor), for the edges discovery and
// supervision must handle: real pagination, endless and invalid cursors, refused pages, oversized results. The
// servers are the v1 SDK's (2025-era peers); the client is the v2 SDK client the lib connects with.

export type CursorBehaviour =
  /** Pages of `pageSize` until the tools run out. */
  | 'normal'
  /** A fresh cursor on every page, forever. */
  | 'endless'
  /** The first page's cursor again on every page. */
  | 'repeating'
  /** An empty-string cursor after the first page. */
  | 'empty'
  /** Refuses the second page's cursor with a JSON-RPC invalid-params error. */
  | 'refused';

export interface EdgeServerOptions {
  readonly name?: string;
  readonly version?: string;
  readonly tools?: readonly Tool[];
  readonly pageSize?: number;
  readonly cursor?: CursorBehaviour;
  readonly capabilities?: ServerCapabilities;
  /** Text returned by every tools/call (default 'ok'). */
  readonly callText?: (name: string) => string;
  /** Makes tools/list fail while it returns true (after the first listing, e.g.). */
  readonly failListing?: () => boolean;
  readonly prompts?: readonly { name: string }[];
}

export function makeTools(count: number, schema?: Tool['inputSchema']): Tool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool number ${i}`,
    inputSchema: schema ?? {
      type: 'object',
      properties: { q: { type: 'string', description: 'query' }, n: { type: 'integer', minimum: 0 } },
      required: ['q'],
    },
  }));
}

export function createEdgeServer(options: EdgeServerOptions = {}): Server {
  const tools = options.tools ?? makeTools(3);
  const pageSize = options.pageSize ?? 100;
  const behaviour = options.cursor ?? 'normal';
  const server = new Server(
    { name: options.name ?? 'edge', version: options.version ?? '1.0.0' },
    { capabilities: options.capabilities ?? { tools: { listChanged: true } } },
  );
  let endless = 0;
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    if (options.failListing?.()) throw new McpError(ErrorCode.InternalError, 'listing unavailable');
    const cursor = request.params?.cursor;
    if (behaviour === 'refused' && cursor !== undefined)
      throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
    const start = cursor === undefined ? 0 : Number(cursor.replace(/^c/, ''));
    if (behaviour === 'endless') {
      endless += 1;
      return {
        tools: tools.slice(0, 1).map((t) => ({ ...t, name: `${t.name}_${endless}` })),
        nextCursor: `c${endless}`,
      };
    }
    const page = tools.slice(start, start + pageSize);
    const more = start + pageSize < tools.length;
    if (!more) return { tools: page };
    if (behaviour === 'repeating') return { tools: page, nextCursor: `c${pageSize}` };
    if (behaviour === 'empty') return { tools: page, nextCursor: '' };
    return { tools: page, nextCursor: `c${start + pageSize}` };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: 'text', text: options.callText?.(request.params.name) ?? 'ok' }],
  }));
  if (options.capabilities?.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [...(options.prompts ?? [])] }));
  }
  if (options.capabilities?.resources) {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: [{ uri: 'mem://one', name: 'one' }],
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: [{ uriTemplate: 'mem://{id}', name: 'by id' }],
    }));
  }
  return server;
}

export interface Connected {
  readonly client: Client;
  /** The protocol version the initialize exchange settled on. */
  readonly protocolVersion: () => string | undefined;
  readonly close: () => Promise<void>;
}

/** A real v2 SDK client connected to a v1 `server` over the v1 SDK's in-memory transport pair (no I/O). */
export async function connectInMemory(server: Server): Promise<Connected> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'gatehouse-test', version: '0.0.0' });
  // The same JSON-RPC messages either way; only the two SDKs' message types differ.
  await client.connect(clientSide as unknown as Transport);
  return {
    client,
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
