import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fixed, type BenchContext, type BenchRow, type BenchSection } from './bench-context';
import {
  ECHO_SERVER,
  freePort,
  repositoryRoot,
  startGatewayScenario,
  stopChild,
  waitForHttp,
} from './gateway-call.scenario';
import type { McpLoadOptions, McpLoadSummary } from './mcp-load.runner';
import { processCpu } from './proc-cpu';

// tools/call of one cheap stdio tool (bench/echo-stdio.server.ts) through three fronts, in the same run (issue 16
// acceptance): the Gatehouse gateway (its own process, built, with the real API), the npm `mcp-proxy` (its own
// process, its defaults but Streamable HTTP only) fronting the same stdio command, and "direct HTTP": the same
// tool on the SDK's own Streamable HTTP server in its own process. The load client is its own process
// (bench/mcp-load.runner.ts: SDK clients over Streamable HTTP, one warm session each, one call at a time each) at
// 1, 8 and 32 concurrent sessions; the fronts take turns at each concurrency. CPU per 1,000 calls is each front's
// own (utime+stime from /proc/<pid>/stat over the measured window), its stdio child counted apart.

const CONCURRENCY = [1, 8, 32] as const;
const WARMUP_CALLS_TOTAL = 600;

type Front = 'gateway' | 'mcp-proxy' | 'direct';

interface Target {
  readonly front: Front;
  readonly url: string;
  readonly pid: number;
  readonly tool: string;
  readonly token?: string;
}

interface Measured extends McpLoadSummary {
  readonly cpuMsPer1000: number;
  readonly childCpuMsPer1000: number;
  /** The API's requests during the measured window, by path. */
  readonly apiRequests: Readonly<Record<string, number>>;
}

type ApiCounts = () => Readonly<Record<string, number>>;

function countsSince(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>) {
  const since: Record<string, number> = {};
  for (const [path, count] of Object.entries(after)) {
    const more = count - (before[path] ?? 0);
    if (more > 0) since[path] = more;
  }
  return since;
}

/** One load run against a target: warm, then measured, the target's CPU read at both ends of the window. */
function measure(
  target: Target,
  clients: number,
  durationSeconds: number,
  apiRequests: ApiCounts,
): Promise<Measured> {
  const options: McpLoadOptions = {
    url: target.url,
    tool: target.tool,
    clients,
    warmupCalls: Math.max(20, Math.ceil(WARMUP_CALLS_TOTAL / clients)),
    durationSeconds,
    ...(target.token === undefined ? {} : { token: target.token }),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'mcp-load.runner.js')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let before = { ownMs: 0, childrenMs: 0 };
    let requestsBefore: Readonly<Record<string, number>> = {};
    let summary: Measured | null = null;
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { phase?: string } & McpLoadSummary;
      if (message.phase === 'warm') {
        before = processCpu(target.pid);
        requestsBefore = apiRequests();
        child.stdin.write('go\n');
        return;
      }
      const after = processCpu(target.pid);
      const per1000 = (ms: number) => (ms / Math.max(1, message.calls)) * 1000;
      summary = {
        ...message,
        cpuMsPer1000: per1000(after.ownMs - before.ownMs),
        childCpuMsPer1000: per1000(after.childrenMs - before.childrenMs),
        apiRequests: countsSince(requestsBefore, apiRequests()),
      };
      child.stdin.end();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (summary === null) return reject(new Error(`load client exited with ${code} before its summary`));
      const failed = Object.keys(summary.failures);
      if (failed.length > 0)
        return reject(new Error(`${target.front}: failed calls ${JSON.stringify(summary.failures)}`));
      resolve(summary);
    });
    child.stdin.write(`${JSON.stringify(options)}\n`);
  });
}

async function startMcpProxy(command: readonly string[]): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const bin = join(repositoryRoot(), 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs');
  const child = spawn(
    process.execPath,
    [bin, '--host', '127.0.0.1', '--port', String(port), '--server', 'stream', '--', ...command],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await waitForHttp(`http://127.0.0.1:${port}/ping`, child, 'mcp-proxy');
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

async function startDirect(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(__dirname, 'echo-http.server.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`direct HTTP server exited with ${code}`)));
  });
  const { port } = JSON.parse(first) as { port: number };
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

const FRONT_LABEL: Record<Front, string> = {
  gateway: 'gateway',
  'mcp-proxy': 'mcp-proxy',
  direct: 'direct HTTP (SDK server)',
};

export async function benchGatewayCall(ctx: BenchContext): Promise<BenchSection> {
  const scenario = await startGatewayScenario({ testDb: ctx.testDb, redisUrl: ctx.redisUrl });
  const children: ChildProcess[] = [];
  try {
    const proxy = await startMcpProxy(scenario.echoCommand);
    children.push(proxy.child);
    const direct = await startDirect();
    children.push(direct.child);
    const targets: Target[] = [
      {
        front: 'gateway',
        url: scenario.gatewayUrl,
        pid: scenario.gatewayPid,
        tool: `mcp__${ECHO_SERVER}__echo`,
        token: scenario.agentToken,
      },
      { front: 'mcp-proxy', url: proxy.url, pid: proxy.child.pid ?? 0, tool: 'echo' },
      { front: 'direct', url: direct.url, pid: direct.child.pid ?? 0, tool: 'echo' },
    ];
    const results = new Map<string, Measured>();
    for (const [round, clients] of CONCURRENCY.entries()) {
      // Each concurrency starts with a different front, so none always runs first (or last).
      const order = targets.map((_, i) => targets[(i + round) % targets.length] as Target);
      for (const target of order) {
        ctx.log(`  gateway-call: ${target.front} at ${clients}`);
        results.set(
          `${target.front}@${clients}`,
          await measure(target, clients, ctx.durationSeconds, scenario.apiRequests),
        );
      }
    }
    const at = (front: Front, clients: number) => results.get(`${front}@${clients}`) as Measured;
    const rows: BenchRow[] = [];
    for (const clients of CONCURRENCY) {
      for (const target of targets) {
        const m = at(target.front, clients);
        const child = target.front === 'direct' ? '' : `; stdio child ${fixed(m.childCpuMsPer1000, 0)}`;
        rows.push({
          label: `${FRONT_LABEL[target.front]} at ${clients}: calls/s, p50 / p99 ms, CPU ms per 1,000 calls`,
          value: `${fixed(m.callsPerSecond, 0)}, ${fixed(m.latencyP50Ms, 2)} / ${fixed(m.latencyP99Ms, 2)}, ${fixed(m.cpuMsPer1000, 0)}${child}`,
        });
      }
    }
    for (const clients of CONCURRENCY) {
      const gw = at('gateway', clients);
      const mp = at('mcp-proxy', clients);
      const dh = at('direct', clients);
      rows.push({
        label: `at ${clients}: gateway / mcp-proxy throughput; gateway / mcp-proxy CPU per call; gateway p50 / direct p50`,
        value: `${fixed(gw.callsPerSecond / mp.callsPerSecond, 2)}; ${fixed(gw.cpuMsPer1000 / mp.cpuMsPer1000, 2)}; ${fixed(gw.latencyP50Ms / dh.latencyP50Ms, 2)}`,
      });
    }
    const apiDuring = CONCURRENCY.map((c) => {
      const counts = Object.entries(at('gateway', c).apiRequests);
      return counts.length === 0 ? 'none' : counts.map(([path, n]) => `${n} × ${path}`).join(' + ');
    });
    rows.push({
      label: 'API requests during the gateway’s measured windows (at 1; 8; 32)',
      value: apiDuring.join('; '),
    });
    const met = (test: (clients: number) => boolean) =>
      CONCURRENCY.map((c) => `${test(c) ? 'met' : 'NOT met'} at ${c}`).join(', ');
    rows.push({
      label: 'target: gateway throughput >= mcp-proxy',
      value: met((c) => at('gateway', c).callsPerSecond >= at('mcp-proxy', c).callsPerSecond),
    });
    rows.push({
      label: 'target: gateway CPU per call <= 0.5 × mcp-proxy',
      value: met((c) => at('gateway', c).cpuMsPer1000 <= 0.5 * at('mcp-proxy', c).cpuMsPer1000),
    });
    rows.push({
      label: 'target: gateway p50 <= 2 × direct HTTP p50',
      value: met((c) => at('gateway', c).latencyP50Ms <= 2 * at('direct', c).latencyP50Ms),
    });
    const ratio = at('gateway', 32).callsPerSecond / at('mcp-proxy', 32).callsPerSecond;
    return {
      title: 'tools/call through the gateway vs mcp-proxy vs direct HTTP (one stdio echo tool)',
      method:
        'One cheap stdio tool (`echo`, bench/echo-stdio.server.ts: the SDK McpServer over stdio) fronted by (a) the ' +
        'Gatehouse gateway, built (dist/apps/gateway/src/main.js, NODE_ENV=production, LOG_LEVEL info to a null ' +
        'sink, rate limits raised), with the real API in the bench process (the server approved, discovered and ' +
        'catalogued as the worker does; an agent token; the gateway leases a stdio child for the workspace), (b) ' +
        'the npm `mcp-proxy` 6.7.19 (`--server stream`, its defaults otherwise: one stdio child shared by every ' +
        'session, its event store on) and (c) the same tool on the SDK’s own Streamable HTTP server ' +
        '(bench/echo-http.server.ts, a session per client), each in its own process. The load client is another ' +
        'process (bench/mcp-load.runner.ts): N SDK clients over Streamable HTTP, one session each, ' +
        `${WARMUP_CALLS_TOTAL} warm-up calls spread over them, then one call at a time each for ` +
        `${ctx.durationSeconds} s, at N = ${CONCURRENCY.join(', ')}; the fronts take turns at each N (a different ` +
        'one first each time). CPU per 1,000 calls: utime+stime of the front’s own process from /proc/<pid>/stat ' +
        'over the measured window; its descendants (the stdio upstream) counted apart. The API’s HTTP requests ' +
        'are counted by path during the gateway’s windows: a warm call awaits none; a catalog read every 5 s is ' +
        'the ETag revalidation running behind the calls (decision 0111). All over loopback on a machine of 2 ' +
        'cores shared by load client, front and upstream (and, on a shared machine, by whatever else runs: the ' +
        'load average is in the runs row).',
      rows,
      ratio: { label: 'gateway calls/s / mcp-proxy calls/s at 32 sessions (target >= 1)', value: ratio },
    };
  } finally {
    await Promise.allSettled(children.map((child) => stopChild(child)));
    await scenario.close();
  }
}
