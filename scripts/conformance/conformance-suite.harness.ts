// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against our conformance client.
// The suite needs Node 22 (it uses fs.globSync): node22.ts fetches the `node` package from the npm registry
// when a suite first runs, outside node_modules. Our client runs on this process's Node. Expected failures come
// from one file the suite itself checks both ways (a listed scenario that passes is a failure too). Results land in a temporary directory.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { node22 } from '@gatehouse/testing';
import { EXPECTED_FAILURES } from './expected-failures';

const root = resolve(__dirname, '..', '..');

/** The built client (`node scripts/build.mjs`, which `npm test` runs first). */
export const CLIENT = join(root, 'dist', 'scripts', 'conformance', 'conformance-client.js');

/** The two suite versions installed side by side (package.json pins both exactly). */
export const SUITES = {
  '0.1.16': join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
  '0.2.0-alpha.12': join(root, 'node_modules', 'mcp-conformance-next', 'dist', 'index.js'),
} as const;

export type SuiteVersion = keyof typeof SUITES;

export interface SuiteRun {
  readonly exitCode: number | null;
  /** The suite's own report (stderr and stdout), for the failure message. */
  readonly output: string;
}

export function missingPrerequisites(): string[] {
  return [CLIENT, ...Object.values(SUITES)].filter((path) => !existsSync(path));
}

/** `conformance client --command <our client> <selection...> --expected-failures <file>`. */
export async function runClientSuite(version: SuiteVersion, selection: readonly string[]): Promise<SuiteRun> {
  const cwd = await mkdtemp(join(tmpdir(), 'gh-conformance-'));
  const args = [
    SUITES[version],
    'client',
    '--command',
    `${process.execPath} ${CLIENT}`,
    ...selection,
    '--expected-failures',
    EXPECTED_FAILURES,
  ];
  const node = await node22();
  return new Promise((done, fail) => {
    const child = spawn(node, args, {
      cwd,
      env: { ...process.env, PATH: `${dirname(node)}:${process.env['PATH'] ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (exitCode) => done({ exitCode, output }));
  });
}

export interface ServerSuiteOptions {
  /** Default 0.1.16. */
  readonly version?: SuiteVersion;
  /** The suite's `--expected-failures` (its `server:` list); default EXPECTED_FAILURES, `null` for none. */
  readonly expectedFailures?: string | null;
  /** Passes `-o <dir>`: the suite writes each scenario's `checks.json` there (SuiteRun.resultsDir). */
  readonly keepResults?: boolean;
}

export interface ServerSuiteRun extends SuiteRun {
  /** Where the suite wrote each scenario's results (`keepResults`), else undefined. */
  readonly resultsDir: string | undefined;
}

/**
 * `conformance server --url <url> <selection...> [-o <dir>] [--expected-failures <file>]`: the suite's own client
 * connects to the URL. `selection` is any further arguments (`--scenario x`, `--suite all`,
 * `--requirements 2026-07-28`); the expected-failures file's `server:` list is checked both ways by the suite.
 */
export async function runServerSuite(
  url: string,
  selection: readonly string[] = [],
  options: ServerSuiteOptions = {},
): Promise<ServerSuiteRun> {
  const cwd = await mkdtemp(join(tmpdir(), 'gh-conformance-server-'));
  const resultsDir = options.keepResults === true ? join(cwd, 'results') : undefined;
  const expectedFailures =
    options.expectedFailures === undefined ? EXPECTED_FAILURES : options.expectedFailures;
  const args = [
    SUITES[options.version ?? '0.1.16'],
    'server',
    '--url',
    url,
    ...selection,
    ...(resultsDir === undefined ? [] : ['-o', resultsDir]),
    ...(expectedFailures === null ? [] : ['--expected-failures', expectedFailures]),
  ];
  const node = await node22();
  return new Promise((done, fail) => {
    const child = spawn(node, args, {
      cwd,
      env: { PATH: `${dirname(node)}:/usr/bin:/bin` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (exitCode) => done({ exitCode, output, resultsDir }));
  });
}
