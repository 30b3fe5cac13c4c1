import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFixedResolver, createPinnedFetch, type PinnedFetch } from '@gatehouse/egress';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { fixed, median, type BenchContext, type BenchSection } from './bench-context';

// HTTP `tools/call` through libs/egress's pinned, pooled fetch (every request admitted against a remembered
// answer, a pool pinned to the checked address, bodies bounded while they stream: per event, and by an idle
// bound) against the SDK's default fetch (Node's global fetch and its global keep-alive pool), both driving
// the SDK's own Client and StreamableHTTPClientTransport against the same loopback SDK server (McpServer over
// StreamableHTTPServerTransport, stateful sessions, answers as event streams), in the same process and run.
// Rounds alternate between the two clients, so drift in the machine's load falls on both alike.

const ROUND_CALLS = 200;
const WARMUP_CALLS = 300;
const MIN_ROUNDS = 4;
const CONCURRENT_CALLERS = 8;
const HOST = 'bench-mcp.gatehouse.test';

interface Loopback {
  readonly port: number;
  close(): Promise<void>;
}

function buildServer(): McpServer {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: { text: z.string() } },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

/** The SDK's server side on 127.0.0.1: one transport (and server) per session. */
async function startServer(): Promise<Loopback> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (typeof id === 'string' && known === undefined) {
      res.writeHead(404).end();
      return;
    }
    const serve = async (): Promise<void> => {
      let transport = known;
      if (transport === undefined) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => {
            sessions.set(sessionId, created);
          },
        });
        await buildServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    };
    serve().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return {
    port: (http.address() as AddressInfo).port,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      http.close();
      await once(http, 'close');
    },
  };
}

async function connect(url: string, fetch: FetchLike | undefined): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), fetch === undefined ? {} : { fetch }));
  return client;
}

async function call(client: Client, i: number): Promise<void> {
  const result = await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } });
  if (result.isError === true) throw new Error('echo failed');
}

interface Round {
  readonly msPerCall: number;
  readonly cpuMsPerCall: number;
}

async function sequentialRound(client: Client, calls: number): Promise<Round> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < calls; i += 1) await call(client, i);
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { msPerCall: elapsed / calls, cpuMsPerCall: (used.user + used.system) / 1000 / calls };
}

/** Calls per second with several callers at once over one client (one session). */
async function concurrentRate(client: Client, calls: number): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENT_CALLERS }, async () => {
      while (next < calls) await call(client, (next += 1));
    }),
  );
  return (calls / (performance.now() - start)) * 1000;
}

export async function benchMcpHttpCall(ctx: BenchContext): Promise<BenchSection> {
  const server = await startServer();
  let pinned: PinnedFetch | null = null;
  const clients: Client[] = [];
  try {
    pinned = createPinnedFetch({
      policy: {
        allowInsecureLoopback: true,
        operatorDenylist: { cidrs: [], hostnames: [] },
        operatorAllowedPrivateRanges: [],
        tenantOptedInPrivateRanges: [],
      },
      resolver: createFixedResolver({ [HOST]: ['127.0.0.1'] }),
      timeoutMs: 10_000,
      // The standalone GET stream may stay silent for the whole run.
      idleTimeoutMs: 600_000,
      maxResponseBytes: 8 * 1024 * 1024,
      maxEventBytes: 8 * 1024 * 1024,
    });
    const viaDefault = await connect(`http://127.0.0.1:${server.port}/mcp`, undefined);
    const viaPinned = await connect(`http://${HOST}:${server.port}/mcp`, pinned);
    clients.push(viaDefault, viaPinned);

    await sequentialRound(viaDefault, WARMUP_CALLS);
    await sequentialRound(viaPinned, WARMUP_CALLS);

    const base: Round[] = [];
    const ours: Round[] = [];
    const deadline = performance.now() + ctx.durationSeconds * 2 * 1000;
    while (base.length < MIN_ROUNDS || performance.now() < deadline) {
      // Alternating which goes first, so neither always runs right after the other's garbage.
      const first = base.length % 2 === 0;
      if (first) base.push(await sequentialRound(viaDefault, ROUND_CALLS));
      ours.push(await sequentialRound(viaPinned, ROUND_CALLS));
      if (!first) base.push(await sequentialRound(viaDefault, ROUND_CALLS));
    }
    const baseRate = await concurrentRate(viaDefault, ROUND_CALLS * 2);
    const oursRate = await concurrentRate(viaPinned, ROUND_CALLS * 2);

    const baseMs = median(base.map((r) => r.msPerCall));
    const oursMs = median(ours.map((r) => r.msPerCall));
    const baseCpu = median(base.map((r) => r.cpuMsPerCall));
    const oursCpu = median(ours.map((r) => r.cpuMsPerCall));
    ctx.log(`  ${base.length} rounds of ${ROUND_CALLS} sequential calls each`);
    return {
      title: 'HTTP tools/call through the pinned, pooled egress fetch (libs/egress, loopback SDK server)',
      method:
        `The SDK's own Client and StreamableHTTPClientTransport call an echo tool on one loopback SDK server ` +
        `(McpServer over StreamableHTTPServerTransport, stateful sessions, answers as event streams), once with ` +
        `the SDK's default fetch (Node's global fetch) and once with createPinnedFetch (admission on every request ` +
        `against a remembered answer, a pool pinned to the checked address, per-event cap and idle bound). ` +
        `${WARMUP_CALLS} warm-up calls each, then alternating rounds of ${ROUND_CALLS} sequential calls for ` +
        `${ctx.durationSeconds * 2} s (at least ${MIN_ROUNDS} rounds each); medians of the rounds. CPU is this ` +
        `process's (client and server together). Then ${ROUND_CALLS * 2} calls from ${CONCURRENT_CALLERS} ` +
        `concurrent callers on each client.` +
        " Node 20's global fetch (the baseline) leaves one abort listener per request on the transport's one AbortSignal (the run prints MaxListenersExceededWarning for it), which may slow the baseline as a run goes on; the pinned fetch removes its listener when each exchange ends.",
      rows: [
        { label: 'SDK default fetch: time per call', value: `${fixed(baseMs, 3)} ms` },
        { label: 'pinned fetch: time per call', value: `${fixed(oursMs, 3)} ms` },
        { label: 'SDK default fetch: CPU per call', value: `${fixed(baseCpu, 3)} ms` },
        { label: 'pinned fetch: CPU per call', value: `${fixed(oursCpu, 3)} ms` },
        { label: 'CPU per call, pinned / default', value: fixed(oursCpu / baseCpu, 3) },
        {
          label: `${CONCURRENT_CALLERS} concurrent callers: calls/s, default / pinned`,
          value: `${fixed(baseRate, 0)} / ${fixed(oursRate, 0)}`,
        },
        { label: 'rounds (each)', value: String(base.length) },
      ],
      ratio: {
        label: 'pinned time per call / SDK default fetch (target: within 1.2)',
        value: oursMs / baseMs,
      },
    };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await pinned?.close();
    await server.close();
  }
}
