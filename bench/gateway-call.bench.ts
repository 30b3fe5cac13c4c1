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

// tools/call of one cheap stdio tool (bench/echo-stdio.server.ts) through three fronts, in the same run (the
// gateway's acceptance, docs/architecture/gateway.md): the Gatehouse gateway (its own process, built, with
// the real API), the npm `mcp-proxy` (its own process, its defaults but Streamable HTTP only) fronting the
// same stdio command, and "direct HTTP": the same tool on the SDK's own Streamable HTTP server in its own
// process. The load client is its own process (bench/mcp-load.runner.ts: SDK clients over Streamable HTTP,
// one warm session each, one call at a time each) at 1, 8 and 32 concurrent sessions; at each, the fronts'
// windows alternate, sessions kept warm. CPU per 1,000 calls is each front's own (utime+stime from
// /proc/<pid>/stat over its windows), its stdio child counted apart.

const CONCURRENCY = [1, 8, 32] as const;
const WARMUP_CALLS_TOTAL = 600;
/** Measured windows per front and concurrency, alternating between the fronts (2 × BENCH_DURATION_S in all). */
const ROUNDS = 4;

type Front = 'gateway' | 'gateway-2026' | 'mcp-proxy' | 'direct';

interface Target {
  readonly front: Front;
  readonly url: string;
  readonly pid: number;
  readonly tool: string;
  readonly token?: string;
  readonly era?: 'legacy' | 'modern';
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

/** One load client process for one target: warm sessions, then windows on demand, then its summary. */
class LoadClient {
  private readonly child: ChildProcess;
  private readonly waiting: ((line: string) => void)[] = [];
  /** Rejects once the client exits: every wait races it (handled here, so a normal exit is no unhandled rejection). */
  private readonly exited: Promise<never>;

  constructor(
    readonly target: Target,
    clients: number,
    windowSeconds: number,
  ) {
    const options: McpLoadOptions = {
      url: target.url,
      tool: target.tool,
      clients,
      warmupCalls: Math.max(20, Math.ceil(WARMUP_CALLS_TOTAL / clients)),
      durationSeconds: windowSeconds,
      ...(target.token === undefined ? {} : { token: target.token }),
      ...(target.era === undefined ? {} : { era: target.era }),
    };
    this.child = spawn(process.execPath, [join(__dirname, 'mcp-load.runner.js')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const stdout = this.child.stdout as NonNullable<ChildProcess['stdout']>;
    createInterface({ input: stdout }).on('line', (line) => this.waiting.shift()?.(line));
    this.exited = new Promise<never>((_, reject) =>
      this.child.once('close', (code) =>
        reject(new Error(`${target.front} load client exited with ${code}`)),
      ),
    );
    this.exited.catch(() => undefined);
    this.child.stdin?.write(`${JSON.stringify(options)}\n`);
  }

  /** The next line the client prints, or an error if it exits first. */
  private next<T>(): Promise<T> {
    return Promise.race([
      new Promise<T>((resolve) => this.waiting.push((line) => resolve(JSON.parse(line) as T))),
      this.exited,
    ]);
  }

  warm(): Promise<{ phase: string }> {
    return this.next();
  }

  window(): Promise<{ calls: number; seconds: number }> {
    const answer = this.next<{ calls: number; seconds: number }>();
    this.child.stdin?.write('go\n');
    return answer;
  }

  async end(): Promise<McpLoadSummary> {
    const summary = this.next<McpLoadSummary>();
    this.child.stdin?.end('end\n');
    return summary;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** Each front's load client at one concurrency, their windows alternating; CPU and API requests per window. */
async function measureAt(
  targets: readonly Target[],
  clients: number,
  windowSeconds: number,
  apiRequests: ApiCounts,
): Promise<Map<Front, Measured>> {
  const loads: LoadClient[] = [];
  try {
    // Started and warmed one after another, not at once: each warm-up has the machine to itself.
    for (const target of targets) {
      const load = new LoadClient(target, clients, windowSeconds);
      loads.push(load);
      await load.warm();
    }
    const cpu = new Map<Front, { own: number; children: number }>();
    const api = new Map<Front, Record<string, number>>();
    for (let round = 0; round < ROUNDS; round += 1) {
      // A different front first each round: none always runs right after another's garbage.
      for (let i = 0; i < loads.length; i += 1) {
        const load = loads[(i + round) % loads.length] as LoadClient;
        const front = load.target.front;
        const before = processCpu(load.target.pid);
        const requestsBefore = apiRequests();
        await load.window();
        const after = processCpu(load.target.pid);
        const used = cpu.get(front) ?? { own: 0, children: 0 };
        cpu.set(front, {
          own: used.own + after.ownMs - before.ownMs,
          children: used.children + after.childrenMs - before.childrenMs,
        });
        const counted = api.get(front) ?? {};
        for (const [path, n] of Object.entries(countsSince(requestsBefore, apiRequests())))
          counted[path] = (counted[path] ?? 0) + n;
        api.set(front, counted);
      }
    }
    const results = new Map<Front, Measured>();
    for (const load of loads) {
      const summary = await load.end();
      const front = load.target.front;
      if (Object.keys(summary.failures).length > 0)
        throw new Error(`${front}: failed calls ${JSON.stringify(summary.failures)}`);
      const used = cpu.get(front) ?? { own: 0, children: 0 };
      const per1000 = (ms: number) => (ms / Math.max(1, summary.calls)) * 1000;
      results.set(front, {
        ...summary,
        cpuMsPer1000: per1000(used.own),
        childCpuMsPer1000: per1000(used.children),
        apiRequests: api.get(front) ?? {},
      });
    }
    return results;
  } finally {
    for (const load of loads) load.kill();
  }
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
  'gateway-2026': 'gateway, 2026-07-28 stateless',
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
      {
        front: 'gateway-2026',
        url: scenario.gatewayUrl,
        pid: scenario.gatewayPid,
        tool: `mcp__${ECHO_SERVER}__echo`,
        token: scenario.agentToken,
        era: 'modern',
      },
      { front: 'mcp-proxy', url: proxy.url, pid: proxy.child.pid ?? 0, tool: 'echo' },
      { front: 'direct', url: direct.url, pid: direct.child.pid ?? 0, tool: 'echo' },
    ];
    const results = new Map<string, Measured>();
    const windowSeconds = (ctx.durationSeconds * 2) / ROUNDS;
    for (const clients of CONCURRENCY) {
      ctx.log(
        `  gateway-call: ${clients} sessions per front, ${ROUNDS} alternating windows of ${windowSeconds} s`,
      );
      const measured = await measureAt(targets, clients, windowSeconds, scenario.apiRequests);
      for (const [front, m] of measured) results.set(`${front}@${clients}`, m);
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
    for (const clients of CONCURRENCY) {
      const modern = at('gateway-2026', clients);
      const mp = at('mcp-proxy', clients);
      const dh = at('direct', clients);
      rows.push({
        label: `at ${clients}: gateway 2026 / mcp-proxy throughput; its CPU per call / mcp-proxy's; its p50 / direct p50`,
        value: `${fixed(modern.callsPerSecond / mp.callsPerSecond, 2)}; ${fixed(modern.cpuMsPer1000 / mp.cpuMsPer1000, 2)}; ${fixed(modern.latencyP50Ms / dh.latencyP50Ms, 2)}`,
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
    const proxyMet = (front: Front) => ({
      throughput: met((c) => at(front, c).callsPerSecond >= at('mcp-proxy', c).callsPerSecond),
      cpu: met((c) => at(front, c).cpuMsPer1000 <= 0.5 * at('mcp-proxy', c).cpuMsPer1000),
      p50: met((c) => at(front, c).latencyP50Ms <= 2 * at('direct', c).latencyP50Ms),
    });
    const modernMet = proxyMet('gateway-2026');
    rows.push({ label: 'target, 2026 stateless: throughput >= mcp-proxy', value: modernMet.throughput });
    rows.push({ label: 'target, 2026 stateless: CPU per call <= 0.5 × mcp-proxy', value: modernMet.cpu });
    rows.push({ label: 'target, 2026 stateless: p50 <= 2 × direct HTTP p50', value: modernMet.p50 });
    rows.push({
      label:
        'goal beyond: gateway (fronting stdio) calls/s >= the SDK’s own Streamable HTTP server of the tool',
      value: met((c) => at('gateway', c).callsPerSecond >= at('direct', c).callsPerSecond),
    });
    const ratio = at('gateway', 32).callsPerSecond / at('mcp-proxy', 32).callsPerSecond;
    return {
      title: 'tools/call through the gateway vs mcp-proxy vs direct HTTP (one stdio echo tool)',
      method:
        'One cheap stdio tool (`echo`, bench/echo-stdio.server.ts: the SDK McpServer over stdio) fronted by (a) the ' +
        'Gatehouse gateway, built (dist/apps/gateway/src/main.js, NODE_ENV=production, LOG_LEVEL info to a null ' +
        'sink, rate limits raised), with the real API in the bench process (the server approved, discovered and ' +
        'catalogued as the worker does; an agent token; the gateway leases a stdio child for the workspace; a warm ' +
        'call takes its warm-call path, decisions 0125 and 0146: SDK v2 sessions), (b) ' +
        'the npm `mcp-proxy` 6.7.19 (`--server stream`, its defaults otherwise: one stdio child shared by every ' +
        'session, its event store on) and (c) the same tool on the SDK’s own Streamable HTTP server ' +
        '(bench/echo-http.server.ts, a session per client), each in its own process. The load client is another ' +
        'process (bench/mcp-load.runner.ts): N SDK clients over Streamable HTTP, one session each (and for the ' +
        'gateway a second set: N SDK v2 clients pinned to 2026-07-28, no session, each call one stateless ' +
        'exchange on the same gateway process, answered by its plain-call path, decision 0146), ' +
        `${WARMUP_CALLS_TOTAL} warm-up calls spread over them, then one call at a time each, at N = ` +
        `${CONCURRENCY.join(', ')}: at each N the three fronts' clients are open and warm at once and take turns ` +
        `in ${ROUNDS} windows of ${(ctx.durationSeconds * 2) / ROUNDS} s each (a different front first each ` +
        'round), so a change in the machine’s load falls on all three; numbers over all windows. CPU per 1,000 ' +
        'calls: utime+stime of the front’s own process from /proc/<pid>/stat over its windows; its descendants ' +
        '(the stdio upstream) counted apart. The API’s HTTP requests ' +
        'are counted by path during the gateway’s windows: a warm call awaits none; the catalog read of nearly ' +
        'every window (its first call finds the policy past the 5 s TTL, the other fronts having run meanwhile) ' +
        'and an introspection every 30 s are revalidations running behind the calls (decision 0111). All over ' +
        'loopback on a machine of 2 ' +
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
