import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AdmittedHttpTransport } from '@gatehouse/contracts';
import { catalogDocumentOf, superviseAdmitted } from '@gatehouse/mcp-client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { fixed, median, type BenchContext, type BenchSection } from './bench-context';

// Discovery of a 10,000-tool server (100 per page, real pagination from a low-level SDK server on loopback
// Streamable HTTP) through libs/mcp-client's public entry point, superviseAdmitted (from an admitted transport
// description: the pinned pooled egress fetch, the handshake and the initial listing under the startup bound,
// cursor checks, bounds, duplicate names, schema narrowing and result caps of every tool), versus a bare SDK
// client (the SDK's default fetch) connecting and running a listTools cursor loop. Both connect afresh and list
// everything in each round; rounds alternate which goes first. Peak heap growth is sampled during each one.

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

/** The baseline: a bare SDK client connects and runs the SDK's own cursor loop, keeping what it lists. */
async function bareLoop(url: URL): Promise<number> {
  const client = new Client({ name: 'bench', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor });
      for (const tool of page.tools) tools.push(tool);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools.length;
  } finally {
    await client.close();
  }
}

/** What a lease would carry for the loopback server. */
function admitted(url: URL): AdmittedHttpTransport {
  return {
    kind: 'http',
    url: url.href,
    origin: url.origin,
    addresses: ['127.0.0.1'],
    allowInsecureLoopback: true,
    privateRanges: [],
    headers: {},
    principalHeader: null,
    headersHelper: null,
    // A loaded machine must not cut the initial listing short: the bench measures it, not the bound.
    startupTimeoutMs: 600_000,
  };
}

/** Through the public entry point: connect from the admitted description, the initial listing, supervised. */
async function throughLib(url: URL): Promise<number> {
  const supervisor = superviseAdmitted(admitted(url), {
    connect: {
      serverName: 'bench',
      clientInfo: { name: 'bench', version: '0.0.0' },
      defaultStartupTimeoutMs: 600_000,
      searchPath: '/usr/bin:/bin',
    },
  });
  try {
    if ((await supervisor.start()) !== 'ready') throw new Error('supervisor did not reach ready');
    const catalog = supervisor.catalog;
    if (catalog === undefined || !catalog.complete) throw new Error('discovery did not complete');
    return catalog.discovery.tools.length;
  } finally {
    await supervisor.close();
  }
}

interface Measured {
  readonly ms: number;
  readonly peakHeapMiB: number;
}

async function measure(url: URL, list: (url: URL) => Promise<number>): Promise<Measured> {
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 2);
  try {
    const t0 = performance.now();
    const count = await list(url);
    const ms = performance.now() - t0;
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    if (count !== TOOLS) throw new Error(`listed ${count} of ${TOOLS} tools`);
    return { ms, peakHeapMiB: (peak - before) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
  }
}

/** The catalog document of one discovered listing (names minted, options applied): not part of the ratio. */
async function documentMs(url: URL): Promise<number> {
  const supervisor = superviseAdmitted(admitted(url), {
    connect: {
      serverName: 'bench',
      clientInfo: { name: 'bench', version: '0.0.0' },
      defaultStartupTimeoutMs: 600_000,
      searchPath: '/usr/bin:/bin',
    },
  });
  try {
    await supervisor.start();
    const catalog = supervisor.catalog;
    if (catalog === undefined) throw new Error('no catalog');
    const t0 = performance.now();
    const document = catalogDocumentOf(catalog, {
      source: { tier: 'managed', origin: 'managed:bench' },
      fetchedAt: new Date().toISOString(),
    });
    const ms = performance.now() - t0;
    if (document.servers[0]?.tools.length !== TOOLS) throw new Error('document lost tools');
    return ms;
  } finally {
    await supervisor.close();
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
    const docMs = await documentMs(server.url);
    return {
      title: 'MCP discovery: 10,000 tools in pages of 100 (libs/mcp-client vs bare SDK loop)',
      method:
        `A low-level SDK server on loopback Streamable HTTP lists ${TOOLS} tools (5 properties each, one with a ` +
        `pattern the narrower drops) in pages of ${PAGE}. Each round times connecting afresh and listing ` +
        'everything: a bare SDK `Client` (default fetch) running a `listTools` cursor loop that keeps the tools, ' +
        "versus libs/mcp-client's public entry point, `superviseAdmitted` from an admitted transport description " +
        '(the pinned pooled egress fetch, the handshake and the initial listing under the startup bound, cursor ' +
        'checks, page and entry bounds, duplicate names, schema narrowing and result caps of every tool) until ' +
        `its supervisor is ready with a complete catalog; alternating which goes first, ${ROUNDS} rounds after ` +
        'one warm-up each, medians shown. Peak heap is the largest heapUsed sampled every 2 ms during the round, ' +
        'above its start (server and client share the process). Building the catalog document from that ' +
        'listing (`catalogDocumentOf`: options applied, names minted) is timed once, outside the ratio.',
      rows: [
        { label: 'bare SDK connect + listTools loop, median ms', value: fixed(bareMs) },
        { label: 'superviseAdmitted until ready, median ms', value: fixed(libMs) },
        {
          label: 'bare SDK loop, median peak heap growth (MiB)',
          value: fixed(median(bare.map((m) => m.peakHeapMiB))),
        },
        {
          label: 'superviseAdmitted, median peak heap growth (MiB)',
          value: fixed(median(lib.map((m) => m.peakHeapMiB))),
        },
        { label: 'catalogDocumentOf for the 10,000 tools, ms (once)', value: fixed(docMs) },
        { label: 'target', value: 'superviseAdmitted within 1.5x of the bare loop' },
      ],
      ratio: { label: 'superviseAdmitted time / bare loop time (target <= 1.5)', value: libMs / bareMs },
    };
  } finally {
    await server.close();
  }
}
