// Child-process entry of a load generator of N concurrent clients, each with its own bearer token, each sending
// one request at a time for the duration (a worker leasing, a user reading): unlike autocannon's connections,
// which share one header set. Runs in its own process so it never competes with the servers for the bench
// process's event loop. Reads its options as JSON on stdin (tokens stay out of `ps`), prints the summary as JSON.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';

export interface ClientsLoadOptions {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  /** JSON body of every request (POST). */
  readonly body?: unknown;
  /** Client i uses tokens[i % tokens.length]. */
  readonly tokens: readonly string[];
  readonly clients: number;
  readonly durationSeconds: number;
}

export interface ClientsLoadSummary {
  readonly requestsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly requests: number;
  /** Answers other than the expected 2xx, by status. */
  readonly failures: Record<string, number>;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

async function main(): Promise<void> {
  const options = JSON.parse(await readStdin()) as ClientsLoadOptions;
  // One keep-alive connection per client.
  const dispatcher = new Agent({ connections: options.clients, pipelining: 1 });
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  const started = performance.now();
  const deadline = started + options.durationSeconds * 1000;
  const client = async (index: number): Promise<void> => {
    const token = options.tokens[index % options.tokens.length] ?? '';
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    while (performance.now() < deadline) {
      const sent = performance.now();
      const response = await request(options.url, {
        method: options.method,
        headers,
        ...(body === undefined ? {} : { body }),
        dispatcher,
      });
      await response.body.dump();
      latencies.push(performance.now() - sent);
      const status = response.statusCode;
      if (status < 200 || status > 299) failures[String(status)] = (failures[String(status)] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  const elapsed = (performance.now() - started) / 1000;
  await dispatcher.close();
  latencies.sort((a, b) => a - b);
  const summary: ClientsLoadSummary = {
    requestsPerSecond: latencies.length / elapsed,
    latencyP50Ms: percentile(latencies, 50),
    latencyP99Ms: percentile(latencies, 99),
    requests: latencies.length,
    failures,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load generator failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
