// `npm run bench`: every bench against its own fresh database, ratios printed and written to
// docs/benchmarks.md. Each bench measures its baseline in the same run; a bench that cannot run (e.g. a
// surface not wired yet) is recorded as such instead of stopping the others.
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { format, resolveConfig } from 'prettier';
import { setupDatabaseRoles } from '@gatehouse/db';
import { createTestDatabase, readTestEnv } from '@gatehouse/testing';
import { benchAuditAppend } from './audit-append.bench';
import { benchAuthThroughput } from './auth-throughput.bench';
import type { BenchContext, BenchSection } from './bench-context';

interface Outcome {
  readonly name: string;
  readonly section?: BenchSection;
  readonly error?: string;
}

const BENCHES: readonly { name: string; run: (ctx: BenchContext) => Promise<BenchSection> }[] = [
  { name: 'audit-append', run: benchAuditAppend },
  { name: 'auth-throughput', run: benchAuthThroughput },
];

const log = (line: string) => process.stdout.write(`${line}\n`);

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

function machineNote(pg: string): string {
  const cpu = cpus();
  return (
    `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ` +
    `${osType()} ${release()}, Node ${process.version}, PostgreSQL ${pg} on the same machine; ` +
    // Other work on the machine skews absolute numbers (ratios less so): say how busy it was.
    `1-minute load average at start ${(loadavg()[0] ?? 0).toFixed(1)}`
  );
}

function renderMarkdown(
  outcomes: readonly Outcome[],
  machine: string,
  date: string,
  durationSeconds: number,
): string {
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts); do not edit by hand. Each bench measures its baseline in the same',
    'run, so ratios compare like with like on whatever machine ran them; absolute numbers are only for that machine.',
    '',
    `- Command: \`npm run bench\` (BENCH_DURATION_S=${durationSeconds})`,
    `- Date: ${date}`,
    `- Machine: ${machine}`,
    '',
    '## Ratios',
    '',
    '| bench | ratio | value |',
    '|---|---|---|',
    ...outcomes.map((o) =>
      o.section
        ? `| ${o.name} | ${o.section.ratio.label} | **${o.section.ratio.value.toFixed(3)}** |`
        : `| ${o.name} | not run | ${o.error ?? ''} |`,
    ),
  ];
  for (const o of outcomes) {
    lines.push('', `## ${o.section?.title ?? o.name}`, '');
    if (!o.section) {
      lines.push(`Not run: ${o.error ?? 'unknown error'}`);
      continue;
    }
    lines.push(o.section.method, '', '| measure | value |', '|---|---|');
    for (const row of o.section.rows) lines.push(`| ${row.label} | ${row.value} |`);
    lines.push(`| **${o.section.ratio.label}** | **${o.section.ratio.value.toFixed(3)}** |`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const env = readTestEnv();
  const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 5);
  await setupDatabaseRoles({
    adminUrl: env.adminUrl,
    passwords: { owner: env.ownerPassword, app: env.appPassword },
  });
  const outcomes: Outcome[] = [];
  let machine = '';
  for (const bench of BENCHES) {
    const testDb = await createTestDatabase();
    try {
      if (machine === '') machine = machineNote(await postgresVersion(testDb.adminUrl));
      log(`bench ${bench.name}: running`);
      const section = await bench.run({ testDb, redisUrl: env.redisUrl, durationSeconds, log });
      outcomes.push({ name: bench.name, section });
      for (const row of section.rows) log(`  ${row.label}: ${row.value}`);
      log(`  ratio ${section.ratio.label}: ${section.ratio.value.toFixed(3)}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      outcomes.push({ name: bench.name, error: message });
      log(`bench ${bench.name}: NOT RUN: ${message}`);
    } finally {
      await testDb.drop();
    }
  }
  const target = join(__dirname, '..', '..', 'docs', 'benchmarks.md');
  const markdown = renderMarkdown(outcomes, machine, new Date().toISOString(), durationSeconds);
  // Formatted like every other file, so `prettier --check .` stays clean after a bench run.
  await writeFile(target, await format(markdown, { ...(await resolveConfig(target)), parser: 'markdown' }));
  log(`wrote ${target}`);
  if (outcomes.some((o) => !o.section)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
