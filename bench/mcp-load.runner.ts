// Child-process entry of the gateway-call bench's load client: N SDK clients (Client over
// StreamableHTTPClientTransport, one session each, warmed up), each calling one tool one call at a time, for
// measured windows. Runs in its own process so it never competes with the proxies for an event loop. Protocol on
// stdio (tokens stay out of `ps`): options as one JSON line on stdin; `{"phase":"warm"}` on stdout once every
// session is open and warmed; then each `go` on stdin runs one window of `durationSeconds` and answers
// `{"phase":"window","calls":n,"seconds":s}`, so the bench can alternate windows between fronts with the
// sessions kept warm; `end` answers the summary over every window as one JSON line, then the sessions are
// closed (outside any window).
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';

export interface McpLoadOptions {
  readonly url: string;
  /** Sent as `Authorization: Bearer` when given. */
  readonly token?: string;
  readonly tool: string;
  readonly clients: number;
  readonly warmupCalls: number;
  readonly durationSeconds: number;
  /**
   * `legacy` (default): SDK 1.32 clients, a 2025-11-25 session each. `modern`: SDK v2 clients pinned to
   * 2026-07-28, no session: every call is one stateless exchange.
   */
  readonly era?: 'legacy' | 'modern';
}

/** What a load client needs of either SDK's client. */
interface CallingClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<object>;
  close(): Promise<void>;
}

export interface McpLoadSummary {
  readonly callsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly calls: number;
  /** Calls that failed (a JSON-RPC error or a result with isError), by message. */
  readonly failures: Record<string, number>;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/**
 * The SDK passes its transport's one AbortSignal to every POST, and Node 20's global fetch leaves a listener on it
 * per request (thousands per run, and a warning written for each past the limit): the load client's own cost grew
 * as a run went on. A POST here goes without it (each ends by itself); the session's GET stream keeps it, so
 * close() still ends that stream.
 */
const fetchWithoutPostSignal: FetchLike = (url, init) => {
  if (init?.method !== 'POST') return fetch(url, init);
  const unsignalled: RequestInit = { ...init };
  delete unsignalled.signal;
  return fetch(url, unsignalled);
};

async function connect(options: McpLoadOptions, index: number): Promise<CallingClient> {
  const headers: Record<string, string> =
    options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
  if (options.era === 'modern') {
    const modern = new ModernClient(
      { name: `bench-load-${index}`, version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(
      new ModernTransport(new URL(options.url), { requestInit: { headers }, fetch: fetchWithoutPostSignal }),
    );
    return modern;
  }
  const client = new Client({ name: `bench-load-${index}`, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(options.url), {
      requestInit: { headers },
      fetch: fetchWithoutPostSignal,
    }),
  );
  return client;
}

async function main(): Promise<void> {
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done === true) throw new Error('no options on stdin');
  const options = JSON.parse(first.value) as McpLoadOptions;
  const clients: CallingClient[] = [];
  for (let i = 0; i < options.clients; i += 1) clients.push(await connect(options, i));
  const failures: Record<string, number> = {};
  const call = async (client: CallingClient, i: number): Promise<void> => {
    try {
      const result = await client.callTool({ name: options.tool, arguments: { text: `call ${i}` } });
      if ('isError' in result && result.isError === true) failures.isError = (failures.isError ?? 0) + 1;
    } catch (error) {
      const key = error instanceof Error ? error.message.slice(0, 120) : 'error';
      failures[key] = (failures[key] ?? 0) + 1;
    }
  };
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < options.warmupCalls; i += 1) await call(client, i);
    }),
  );
  for (const key of Object.keys(failures)) delete failures[key];
  process.stdout.write(`${JSON.stringify({ phase: 'warm' })}\n`);

  const latencies: number[] = [];
  let seconds = 0;
  for (
    let line = await lines.next();
    line.done !== true && line.value.trim() === 'go';
    line = await lines.next()
  ) {
    const before = latencies.length;
    const started = performance.now();
    const deadline = started + options.durationSeconds * 1000;
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; performance.now() < deadline; i += 1) {
          const sent = performance.now();
          await call(client, i);
          latencies.push(performance.now() - sent);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    seconds += elapsed;
    const window = { phase: 'window', calls: latencies.length - before, seconds: elapsed };
    process.stdout.write(`${JSON.stringify(window)}\n`);
  }
  latencies.sort((a, b) => a - b);
  const summary: McpLoadSummary = {
    callsPerSecond: latencies.length / seconds,
    latencyP50Ms: percentile(latencies, 50),
    latencyP99Ms: percentile(latencies, 99),
    calls: latencies.length,
    failures,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  await Promise.allSettled(clients.map((client) => client.close()));
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`mcp load client failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
