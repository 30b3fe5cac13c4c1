// `npm run bench`: every bench against its own fresh database, ratios printed and written to
// docs/benchmarks.md. Each bench measures its baseline in the same run; a bench that cannot run (e.g. a
// surface not wired yet) is recorded as such instead of stopping the others.
//
// `node dist/bench/run.js [name...] [--repeat N] [--no-write]` (after `node scripts/build.mjs`): only the named
// benches, whose ratio rows and sections are merged into docs/benchmarks.md (the others stay as they were);
// `--repeat N` runs each N times (a fresh database each) and keeps the run with the median ratio, since a
// shared machine's load moves single runs; `--no-write` only prints.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { format, resolveConfig } from 'prettier';
import { setupDatabaseRoles } from '@gatehouse/db';
import { createTestDatabase, readTestEnv } from '@gatehouse/testing';
import { benchAdminMcpCall } from './admin-mcp-call.bench';
import { benchApprovalFanout } from './approval-fanout.bench';
import { benchAuditAppend } from './audit-append.bench';
import { benchAuthThroughput } from './auth-throughput.bench';
import { benchCatalogLease } from './catalog-lease.bench';
import { benchDefinitionsResolve } from './definitions-resolve.section';
import { benchGatewayCall } from './gateway-call.bench';
import { benchLeaseIssuance } from './lease-issuance.bench';
import { benchMcpHttpCall } from './mcp-http-call.bench';
import { benchMcpDiscovery } from './mcp-discovery.bench';
import { benchRevocationLatency } from './revocation-latency.bench';
import { fixed, type BenchContext, type BenchSection } from './bench-context';
import { mergeBenchmarks, renderBenchmarks, type BenchOutcome } from './benchmarks-doc';

const BENCHES: readonly { name: string; run: (ctx: BenchContext) => Promise<BenchSection> }[] = [
  { name: 'audit-append', run: benchAuditAppend },
  { name: 'auth-throughput', run: benchAuthThroughput },
  { name: 'definitions-resolve', run: benchDefinitionsResolve },
  { name: 'approval-fanout', run: benchApprovalFanout },
  { name: 'mcp-http-call', run: benchMcpHttpCall },
  { name: 'mcp-discovery', run: benchMcpDiscovery },
  { name: 'revocation-latency', run: benchRevocationLatency },
  { name: 'lease-issuance', run: benchLeaseIssuance },
  { name: 'catalog-lease', run: benchCatalogLease },
  { name: 'gateway-call', run: benchGatewayCall },
  { name: 'admin-mcp-call', run: benchAdminMcpCall },
];

interface RunArgs {
  readonly names: readonly string[];
  readonly repeat: number;
  readonly write: boolean;
}

const log = (line: string) => process.stdout.write(`${line}\n`);

function parseArgs(argv: readonly string[]): RunArgs {
  const names: string[] = [];
  let repeat = 1;
  let write = true;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--no-write') write = false;
    else if (arg === '--repeat') {
      repeat = Number(argv[(i += 1)]);
      if (!Number.isInteger(repeat) || repeat < 1) throw new Error('--repeat takes a whole number >= 1');
    } else if (BENCHES.some((b) => b.name === arg)) names.push(arg);
    else throw new Error(`unknown argument ${arg}; benches: ${BENCHES.map((b) => b.name).join(', ')}`);
  }
  return { names, repeat, write };
}

async function postgresVersion(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  } finally {
    await client.end();
  }
}

const loadNow = () => (loadavg()[0] ?? 0).toFixed(1);

function machineNote(pg: string): string {
  const cpu = cpus();
  return (
    `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ` +
    `${osType()} ${release()}, Node ${process.version}, PostgreSQL ${pg} on the same machine; ` +
    // Other work on the machine skews absolute numbers (ratios less so): say how busy it was.
    `1-minute load average at start ${loadNow()}`
  );
}

/** The run with the median ratio (the lower middle one for an even count), with every run's ratio listed. */
function medianRun(runs: readonly { section: BenchSection; load: string }[]): BenchSection {
  const sorted = [...runs].sort((a, b) => a.section.ratio.value - b.section.ratio.value);
  const chosen = sorted[Math.floor((sorted.length - 1) / 2)]?.section;
  if (chosen === undefined) throw new Error('no run to choose from');
  if (runs.length === 1) return chosen;
  return {
    ...chosen,
    method: `${chosen.method} The run shown is the median (by ratio) of ${runs.length} runs, each on a fresh database.`,
    rows: [
      ...chosen.rows,
      {
        label: `ratio of each of the ${runs.length} runs (1-minute load average at its start)`,
        value: runs.map((r) => `${fixed(r.section.ratio.value, 3)} (${r.load})`).join(', '),
      },
    ],
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const env = readTestEnv();
  const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 5);
  await setupDatabaseRoles({
    adminUrl: env.adminUrl,
    passwords: { owner: env.ownerPassword, app: env.appPassword },
  });
  const selected = args.names.length === 0 ? BENCHES : BENCHES.filter((b) => args.names.includes(b.name));
  const outcomes: BenchOutcome[] = [];
  let machine = '';
  for (const bench of selected) {
    const runs: { section: BenchSection; load: string }[] = [];
    try {
      for (let round = 1; round <= args.repeat; round += 1) {
        const testDb = await createTestDatabase();
        try {
          if (machine === '') machine = machineNote(await postgresVersion(testDb.adminUrl));
          const load = loadNow();
          log(`bench ${bench.name}: running${args.repeat > 1 ? ` (${round}/${args.repeat})` : ''}`);
          const section = await bench.run({ testDb, redisUrl: env.redisUrl, durationSeconds, log });
          runs.push({ section, load });
          for (const row of section.rows) log(`  ${row.label}: ${row.value}`);
          log(`  ratio ${section.ratio.label}: ${section.ratio.value.toFixed(3)} (load ${load})`);
        } finally {
          await testDb.drop();
        }
      }
      outcomes.push({ name: bench.name, section: medianRun(runs) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcomes.push({ name: bench.name, error: message });
      log(`bench ${bench.name}: NOT RUN: ${message}`);
    }
  }
  if (args.repeat > 1) {
    for (const o of outcomes)
      if (o.section) log(`${o.name}: median ratio ${o.section.ratio.value.toFixed(3)}`);
  }

  const argv = process.argv.slice(2).join(' ');
  const command =
    args.names.length === 0 && args.repeat === 1
      ? `\`npm run bench\` (BENCH_DURATION_S=${durationSeconds})`
      : `\`node dist/bench/run.js ${argv}\` (BENCH_DURATION_S=${durationSeconds})`;
  const note = { command, date: new Date().toISOString(), machine };
  if (args.write) {
    const target = join(__dirname, '..', '..', 'docs', 'benchmarks.md');
    const existing = await readFile(target, 'utf8').catch(() => null);
    const markdown =
      args.names.length === 0 || existing === null
        ? renderBenchmarks(outcomes, note, existing)
        : mergeBenchmarks(existing, outcomes, note);
    // Formatted like every other file, so `prettier --check .` stays clean after a bench run.
    await writeFile(target, await format(markdown, { ...(await resolveConfig(target)), parser: 'markdown' }));
    log(`wrote ${target}`);
  }
  if (outcomes.some((o) => !o.section)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
