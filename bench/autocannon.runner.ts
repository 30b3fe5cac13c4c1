// Child-process entry of the load generator: autocannon runs in its own process (its own event loop and core),
// so it never competes with the server under test for the bench process's event loop. Reads its options as
// JSON on stdin (headers may hold a bench token: stdin keeps it out of `ps`), prints the summary as JSON.
import autocannon from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly connections: number;
  readonly durationSeconds: number;
  /** GET when absent; a POST sends `body` (JSON text) with every request. */
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
}

export interface LoadSummary {
  readonly requestsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<void> {
  const options = JSON.parse(await readStdin()) as LoadOptions;
  const result = await autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    duration: options.durationSeconds,
    pipelining: 1,
    ...(options.method !== undefined ? { method: options.method } : {}),
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  const summary: LoadSummary = {
    requestsPerSecond: result.requests.total / result.duration,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`load generator failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
