import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { resolveDefinitions, type DefinitionSourceInput, type ResolveInput } from '@gatehouse/definitions';

// Resolving 10,000 server entries across the five tiers in-process on the pure lib: decode (every entry, with
// every strict reader), materialize, fingerprint, security identity and redacted projection, no validation
// skipped. Baseline in the same run: JSON.parse of every source plus two sha256 of each entry (its JSON text),
// i.e. the least any resolver that hashes a fingerprint and an identity per entry must do. No database, no
// decryption, no I/O.

export interface DefinitionsBenchResult {
  readonly name: string;
  /** Entries per second for the baseline (JSON.parse + 2 × sha256 per entry). */
  readonly baselineOpsPerSec: number;
  /** Entries per second for resolveDefinitions. */
  readonly opsPerSec: number;
  /**
   * How many times slower than the baseline (target: within 10): the median over rounds of resolver time /
   * baseline time, each round measuring both back to back, so load from other processes drifting between rounds
   * does not skew it. Close to baselineOpsPerSec / opsPerSec on a quiet machine.
   */
  readonly ratio: number;
  /** How it was measured, one paragraph (for docs/benchmarks.md). */
  readonly method: string;
}

const TOTAL_SERVERS = 10_000;
const PER_TIER = TOTAL_SERVERS / 5;
/** Adjacent tiers share this many names, so shadowing is exercised. */
const OVERLAP = 500;
const PLUGIN_ORIGINS = 4;
const WARMUP_ROUNDS = 2;
const MEASURED_ROUNDS = 9;
const USER = 'bench-user';

function stdioEntry(i: number): Record<string, unknown> {
  return {
    command: 'npx',
    args: [
      '-y',
      `@acme/mcp-server-${i % 50}`,
      '--region',
      '${REGION:-eu-west-1}',
      '--api-key',
      '${ACME_API_KEY}',
    ],
    env: {
      GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PAT}',
      NODE_OPTIONS: '--max-old-space-size=512',
      LOG_LEVEL: i % 2 === 0 ? 'info' : 'debug',
    },
    cwd: '${HOME:-/home/agent}/servers',
    allowTools: ['search', 'read_file', `tool_${i % 7}`],
    toolAxes: { search: { effect: 'read', egress: false } },
    startupTimeoutMs: 30_000,
  };
}

function httpEntry(i: number): Record<string, unknown> {
  return {
    type: 'http',
    url: `\${DOCS_MCP_URL:-https://mcp-${i % 100}.internal.example.com/mcp}`,
    headers: { Authorization: 'Bearer ${SERVICE_TOKEN}', 'X-Team': 'platform' },
    principalHeader: 'X-Agent-Principal',
    oauth: { clientId: 'gatehouse', scopes: ['read'] },
    elicitation: false,
  };
}

function document(start: number, count: number): string {
  const servers: Record<string, unknown> = {};
  for (let i = start; i < start + count; i += 1)
    servers[`srv-${i}`] = i % 2 === 0 ? stdioEntry(i) : httpEntry(i);
  return JSON.stringify({ mcpServers: servers });
}

/** 2,000 entries per tier; each tier starts where the one above leaves off minus the overlap. */
export function buildDefinitionsBenchInput(): ResolveInput {
  const stride = PER_TIER - OVERLAP;
  const readable = (
    tier: DefinitionSourceInput['tier'],
    origin: string,
    text: string,
  ): DefinitionSourceInput => ({
    tier,
    origin,
    readability: 'readable',
    document: text,
  });
  const sources: DefinitionSourceInput[] = [
    readable('managed', 'managed:org-policy', document(0, PER_TIER)),
    readable('local', `local:ws:${USER}`, document(stride, PER_TIER)),
    readable('project', 'project:ws', document(2 * stride, PER_TIER)),
    readable('user', `user:${USER}`, document(3 * stride, PER_TIER)),
  ];
  const perPlugin = PER_TIER / PLUGIN_ORIGINS;
  for (let p = 0; p < PLUGIN_ORIGINS; p += 1) {
    sources.push(readable('plugin', `plugin:p${p}`, document(4 * stride + p * perPlugin, perPlugin)));
  }
  return {
    sources,
    variables: {
      tenant: {
        GITHUB_PAT: 'ghp_benchbenchbenchbenchbench0123456789',
        SERVICE_TOKEN: 'svc-token',
        REGION: 'us-east-1',
      },
      workspace: { ACME_API_KEY: 'acme-key' },
      user: { HOME: '/home/bench' },
    },
    overlays: [{ serverName: 'srv-1', scope: { kind: 'workspace' } }],
    view: { kind: 'principal', userId: USER },
    // A tenant's fingerprint key, as the API derives it (fixed bytes here).
    fingerprintKey: { id: 'bench', bytes: new Uint8Array(32).fill(9) },
  };
}

function runBaseline(input: ResolveInput): number {
  let hashed = 0;
  for (const source of input.sources) {
    if (source.readability !== 'readable') continue;
    const parsed = JSON.parse(source.document) as { mcpServers: Record<string, unknown> };
    for (const name of Object.keys(parsed.mcpServers)) {
      const text = JSON.stringify(parsed.mcpServers[name]);
      createHash('sha256').update(text).digest('hex');
      createHash('sha256').update(text).digest('hex');
      hashed += 1;
    }
  }
  return hashed;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function timeMs(fn: () => void): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

export async function runDefinitionsBench(): Promise<DefinitionsBenchResult> {
  const input = buildDefinitionsBenchInput();
  let entries = 0;
  const check = resolveDefinitions(input);
  // Guard against measuring a resolver that silently does nothing.
  if (check.entries.filter((e) => e.status === 'resolved').length < TOTAL_SERVERS / 2) {
    throw new Error('definitions bench: the fixture did not resolve');
  }
  for (let i = 0; i < WARMUP_ROUNDS; i += 1) {
    entries = runBaseline(input);
    resolveDefinitions(input);
  }
  const baseline: number[] = [];
  const resolver: number[] = [];
  // Interleaved rounds so drift on a busy machine hits both sides alike.
  for (let i = 0; i < MEASURED_ROUNDS; i += 1) {
    baseline.push(timeMs(() => runBaseline(input)));
    resolver.push(timeMs(() => resolveDefinitions(input)));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const baselineOpsPerSec = entries / (median(baseline) / 1000);
  const opsPerSec = entries / (median(resolver) / 1000);
  return {
    name: 'definitions-resolve',
    baselineOpsPerSec,
    opsPerSec,
    ratio: median(resolver.map((ms, i) => ms / (baseline[i] as number))),
    method:
      `${entries} server entries in 8 sources across the five tiers (managed, local, project, user, four plugins; ` +
      `${OVERLAP} shared names between adjacent tiers), half stdio and half http, each with variable references, ` +
      'credential-keyed env/headers and per-server options, resolved for one principal by resolveDefinitions ' +
      '(decode with every strict reader, materialize, fingerprint, security identity, redacted projection, overlays). ' +
      "Baseline in the same process: JSON.parse of every source and two sha256 of each entry's JSON text. " +
      `Entries per second from the median of ${MEASURED_ROUNDS} interleaved rounds after ${WARMUP_ROUNDS} warm-up rounds; ` +
      'ratio = median over rounds of resolver time / baseline time (each round measures both back to back).',
  };
}

if (require.main === module) {
  runDefinitionsBench()
    .then((result) => {
      process.stdout.write(
        `${result.name}: baseline ${result.baselineOpsPerSec.toFixed(0)} entries/s, ` +
          `resolver ${result.opsPerSec.toFixed(0)} entries/s, ratio ${result.ratio.toFixed(2)}x\n`,
      );
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
