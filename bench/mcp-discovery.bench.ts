import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { discoverCatalog } from '@gatehouse/mcp-client';
import { fixed, median, type BenchContext, type BenchSection } from './bench-context';

// Discovery of a 10,000-tool server (100 per page, real pagination from a low-level SDK server on loopback
// Streamable HTTP): through libs/mcp-client's discoverCatalog (cursor checks, bounds, duplicate names, schema
// narrowing and result caps of every tool) versus a bare SDK listTools loop, alternating rounds on fresh
// connections in the same run. Peak heap growth is sampled during each listing.

const TOOLS = Number(process.env.BENCH_MCP_TOOLS ?? 10_000);
const PAGE = 100;
const ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 5);

function makeTools(): Tool[] {
  return Array.from({ length: TOOLS }, (_, i) => ({
    name: `tool_${i}`,
    description: `Reads records of kind ${i} from the store, newest first.`,
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Where to read', minLength: 1 },
        limit: { type: 'integer', minimum: 1, maximum: 1_000 },
        mode: { type: 'string', enum: ['fast', 'full'] },
        filter: { type: 'string', pattern: '^[a-z]+$' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 16 },
      },
      required: ['path'],
      additionalProperties: false,
    },
  }));
}

async function serve(tools: readonly Tool[]) {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const servers: Server[] = [];
  const http = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? transports.get(id) : undefined;
    if (known) return void known.handleRequest(req, res);
    const server = new Server({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const start = Number(request.params?.cursor ?? 0);
      const next = start + PAGE;
      return next < tools.length
        ? { tools: tools.slice(start, next), nextCursor: String(next) }
        : { tools: tools.slice(start) };
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void transports.set(sid, transport),
    });
    servers.push(server);
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The baseline: the SDK's own cursor loop, keeping what it lists (as any discovery must). */
async function bareLoop(client: Client): Promise<number> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    for (const tool of page.tools) tools.push(tool);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools.length;
}

async function throughLib(client: Client): Promise<number> {
  const discovery = await discoverCatalog(client);
  if (!discovery.complete) throw new Error('discovery did not complete');
  return discovery.tools.length;
}

interface Measured {
  readonly ms: number;
  readonly peakHeapMiB: number;
}

async function measure(url: URL, list: (client: Client) => Promise<number>): Promise<Measured> {
  const client = new Client({ name: 'bench', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 2);
    const t0 = performance.now();
    const count = await list(client);
    const ms = performance.now() - t0;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    if (count !== TOOLS) throw new Error(`listed ${count} of ${TOOLS} tools`);
    return { ms, peakHeapMiB: (peak - before) / 2 ** 20 };
  } finally {
    await client.close();
  }
}

export async function benchMcpDiscovery(ctx: BenchContext): Promise<BenchSection> {
  const server = await serve(makeTools());
  try {
    // Warm-up: JIT, the SDK's schemas, connection setup.
    await measure(server.url, bareLoop);
    await measure(server.url, throughLib);
    const bare: Measured[] = [];
    const lib: Measured[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which goes first, so drift in the machine's load falls on both.
      if (round % 2 === 0) {
        bare.push(await measure(server.url, bareLoop));
        lib.push(await measure(server.url, throughLib));
      } else {
        lib.push(await measure(server.url, throughLib));
        bare.push(await measure(server.url, bareLoop));
      }
      ctx.log(
        `  round ${round + 1}: bare ${fixed(bare.at(-1)?.ms ?? NaN)} ms, lib ${fixed(lib.at(-1)?.ms ?? NaN)} ms`,
      );
    }
    const bareMs = median(bare.map((m) => m.ms));
    const libMs = median(lib.map((m) => m.ms));
    return {
      title: 'MCP discovery: 10,000 tools in pages of 100 (libs/mcp-client vs bare SDK loop)',
      method:
        `A low-level SDK server on loopback Streamable HTTP lists ${TOOLS} tools (5 properties each, one with a ` +
        `pattern the narrower drops) in pages of ${PAGE}. Each round opens a fresh SDK client and times only the ` +
        `listing: a bare \`listTools\` cursor loop keeping the tools it lists versus \`discoverCatalog\` (cursor checks, page and entry bounds, ` +
        `duplicate names, schema narrowing and result caps of every tool), alternating which goes first; ` +
        `${ROUNDS} rounds after one warm-up each, medians shown. Peak heap is the largest heapUsed sampled every ` +
        '2 ms during the listing, above its start (server and client share the process).',
      rows: [
        { label: 'bare SDK loop, median ms', value: fixed(bareMs) },
        { label: 'discoverCatalog, median ms', value: fixed(libMs) },
        {
          label: 'bare SDK loop, median peak heap growth (MiB)',
          value: fixed(median(bare.map((m) => m.peakHeapMiB))),
        },
        {
          label: 'discoverCatalog, median peak heap growth (MiB)',
          value: fixed(median(lib.map((m) => m.peakHeapMiB))),
        },
        { label: 'target', value: 'discoverCatalog within 1.5x of the bare loop' },
      ],
      ratio: { label: 'discoverCatalog time / bare loop time (target <= 1.5)', value: libMs / bareMs },
    };
  } finally {
    await server.close();
  }
}
