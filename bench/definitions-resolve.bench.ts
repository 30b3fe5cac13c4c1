import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  MAX_SERVERS_PER_DOCUMENT,
  resolveDefinitions,
  type DefinitionSourceInput,
  type ResolveInput,
} from '@gatehouse/definitions';

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
  /**
   * Long input (target: within 3): time per character resolving one hostile 400,000-character document over the
   * same at 40,000 characters, the least over interleaved pairs. Linear code stays near 1; quadratic near 10.
   */
  readonly longInputRatio: number;
  /** How it was measured, one paragraph (for docs/benchmarks.md). */
  readonly method: string;
}

const TOTAL_SERVERS = 10_000;
/** Adjacent tiers share this many names, so shadowing is exercised. */
const OVERLAP = 500;
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

/** Documents hold at most this many servers (MAX_SERVERS_PER_DOCUMENT): each tier's range is split into them. */
const PER_DOCUMENT = MAX_SERVERS_PER_DOCUMENT;
/** The user tier has one origin per principal, so one document. */
const USER_SERVERS = PER_DOCUMENT;
const OTHER_TIER_SERVERS = (TOTAL_SERVERS - USER_SERVERS) / 4;

/**
 * Managed, local, project, user, plugin in that order, each tier's names starting where the one above leaves off
 * minus the overlap; each tier's range split into documents of at most 200 servers (several origins per tier,
 * one for the user tier), so names stay unique within a tier.
 */
export function buildDefinitionsBenchInput(): ResolveInput {
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
  const tiers: readonly {
    tier: DefinitionSourceInput['tier'];
    count: number;
    origin: (k: number) => string;
  }[] = [
    { tier: 'managed', count: OTHER_TIER_SERVERS, origin: (k) => `managed:org-policy-${k}` },
    { tier: 'local', count: OTHER_TIER_SERVERS, origin: (k) => `local:ws${k}:${USER}` },
    { tier: 'project', count: OTHER_TIER_SERVERS, origin: (k) => `project:ws${k}` },
    { tier: 'user', count: USER_SERVERS, origin: () => `user:${USER}` },
    { tier: 'plugin', count: OTHER_TIER_SERVERS, origin: (k) => `plugin:p${k}` },
  ];
  const sources: DefinitionSourceInput[] = [];
  let start = 0;
  for (const { tier, count, origin } of tiers) {
    for (let k = 0; k * PER_DOCUMENT < count; k += 1) {
      const from = start + k * PER_DOCUMENT;
      sources.push(
        readable(tier, origin(k), document(from, Math.min(PER_DOCUMENT, count - k * PER_DOCUMENT))),
      );
    }
    start += count - Math.min(OVERLAP, count / 2);
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

const LONG_SMALL = 10_000;
const LONG_LARGE = 100_000;
const LONG_PAIRS = 5;

/**
 * One source of two entries whose values are `n`-character runs of the shapes that were once quadratic (a URL
 * spelling the secret sentinel, a long query parameter name, a long env key, a long `key=` argument): about
 * 4n characters, under the document cap at n = 100,000.
 */
function longInput(n: number): ResolveInput {
  const document = JSON.stringify({
    mcpServers: {
      web: {
        type: 'http',
        url: `https://mcp.example.com/ghsecret${'x'.repeat(n)}/\${SERVICE_TOKEN}?${'Q'.repeat(n)}=1`,
      },
      tool: { command: 'node', args: [`--${'a'.repeat(n)}=1`], env: { [`K${'B'.repeat(n)}`]: 'v' } },
    },
  });
  return {
    sources: [{ tier: 'user', origin: `user:${USER}`, readability: 'readable', document }],
    variables: { tenant: { SERVICE_TOKEN: 'svc-token' } },
    overlays: [],
    view: { kind: 'principal', userId: USER },
    fingerprintKey: { id: 'bench', bytes: new Uint8Array(32).fill(9) },
  };
}

function runLongInputRatio(): number {
  const small = longInput(LONG_SMALL);
  const large = longInput(LONG_LARGE);
  if (resolveDefinitions(large).entries.some((e) => e.status !== 'resolved')) {
    throw new Error('definitions bench: the long-input fixture did not resolve');
  }
  let least = Number.POSITIVE_INFINITY;
  for (let pair = 0; pair < LONG_PAIRS; pair += 1) {
    const perCharSmall = timeMs(() => resolveDefinitions(small)) / LONG_SMALL;
    const perCharLarge = timeMs(() => resolveDefinitions(large)) / LONG_LARGE;
    least = Math.min(least, perCharLarge / perCharSmall);
  }
  return least;
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
  const longInputRatio = runLongInputRatio();
  const baselineOpsPerSec = entries / (median(baseline) / 1000);
  const opsPerSec = entries / (median(resolver) / 1000);
  return {
    name: 'definitions-resolve',
    baselineOpsPerSec,
    opsPerSec,
    ratio: median(resolver.map((ms, i) => ms / (baseline[i] as number))),
    longInputRatio,
    method:
      `${entries} server entries in ${input.sources.length} sources of at most ${PER_DOCUMENT} servers across the ` +
      'five tiers (several origins per tier, one user source; ' +
      `${OVERLAP} shared names between adjacent tiers), half stdio and half http, each with variable references, ` +
      'credential-keyed env/headers and per-server options, resolved for one principal by resolveDefinitions ' +
      '(decode with every strict reader, materialize, fingerprint, security identity, redacted projection, overlays). ' +
      "Baseline in the same process: JSON.parse of every source and two sha256 of each entry's JSON text. " +
      `Entries per second from the median of ${MEASURED_ROUNDS} interleaved rounds after ${WARMUP_ROUNDS} warm-up rounds; ` +
      'ratio = median over rounds of resolver time / baseline time (each round measures both back to back). ' +
      `Long input: one user source of two entries whose URL, query name, argument and env key are each n characters ` +
      `of once-quadratic shapes, resolved at n = ${LONG_SMALL} and n = ${LONG_LARGE} in ${LONG_PAIRS} interleaved ` +
      'pairs; the ratio is the least over pairs of time per character at the large n over the small n (linear ≈ 1).',
  };
}

if (require.main === module) {
  runDefinitionsBench()
    .then((result) => {
      process.stdout.write(
        `${result.name}: baseline ${result.baselineOpsPerSec.toFixed(0)} entries/s, ` +
          `resolver ${result.opsPerSec.toFixed(0)} entries/s, ratio ${result.ratio.toFixed(2)}x, ` +
          `long-input ratio ${result.longInputRatio.toFixed(2)}x\n`,
      );
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
