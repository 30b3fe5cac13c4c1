// The MCP Inspector 2.x's CLI (@modelcontextprotocol/inspector, exact pin), a judge of the gateway that nobody
// here wrote. It is not a devDependency: the package bundles the Inspector's web UI and TUI (vite, react, ink, a
// native keyring) and asks for Node >= 22.19, so npm fetches it into its own cache (npm-exec.ts) and its launcher
// runs on Node 22 (node22.ts). One run is one process: connect in the era asked for, one request, the result
// printed as one JSON object, exit.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { node22 } from './node22';
import { once, printInsideNpmExec } from './npm-exec';
import { runProgram, type ProgramRun } from './program-run';

export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector@2.12.0';
const INSPECTOR_NAME = '@modelcontextprotocol/inspector';
const INSPECTOR_VERSION = '2.12.0';
// The first fetch installs the package and its dependencies (about 30 s here); later lookups take about 2 s.
const FETCH_TIMEOUT_MS = 180_000;

// Evaluated inside `npm exec`: the real path of the `mcp-inspector` bin npm put on PATH (the launcher script).
const LAUNCHER_EXPRESSION = [
  "const fs = require('fs'), path = require('path');",
  "const dir = process.env.PATH.split(path.delimiter).find((d) => fs.existsSync(path.join(d, 'mcp-inspector')));",
  "JSON.stringify(dir === undefined ? null : fs.realpathSync(path.join(dir, 'mcp-inspector')))",
].join(' ');

/** `--protocol-era`: `legacy` is the 2025-11-25 initialize handshake, `modern` the 2026-era discover, no session. */
export type InspectorProtocolEra = 'legacy' | 'auto' | 'modern';

export interface InspectorCliOptions {
  /** A Streamable HTTP endpoint. */
  readonly endpoint: URL;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token: string;
  readonly era: InspectorProtocolEra;
  /** `--method` and its own options: `['tools/list']`, `['tools/call', '--tool-name', 'x', '--tool-arg', 'k=v']`. */
  readonly method: readonly string[];
  /** HOME of the run: the Inspector keeps its catalog and client config under `~/.mcp-inspector`. */
  readonly home: string;
}

/** Its result as one JSON object on stdout (`--format json`), or nothing when the run failed. */
export type InspectorCliRun = ProgramRun;

/** The launcher script (`mcp-inspector`) of the pinned Inspector in npm's cache, checked to be that version. */
export const inspectorLauncher: () => Promise<string> = once(async () => {
  const launcher = await printInsideNpmExec(INSPECTOR_PACKAGE, LAUNCHER_EXPRESSION, FETCH_TIMEOUT_MS);
  if (typeof launcher !== 'string' || !isAbsolute(launcher) || !existsSync(launcher)) {
    throw new Error(`npm exec ${INSPECTOR_PACKAGE} found no mcp-inspector launcher (${String(launcher)})`);
  }
  // <package>/clients/launcher/build/index.js
  const manifestPath = join(dirname(launcher), '..', '..', '..', 'package.json');
  const manifest = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as unknown)
    : null;
  const { name, version } = (typeof manifest === 'object' && manifest !== null ? manifest : {}) as {
    name?: unknown;
    version?: unknown;
  };
  if (name !== INSPECTOR_NAME || version !== INSPECTOR_VERSION) {
    throw new Error(`${launcher} belongs to ${String(name)}@${String(version)}, not ${INSPECTOR_PACKAGE}`);
  }
  return launcher;
});

/**
 * `mcp-inspector --cli <endpoint> --transport http --protocol-era <era> --format json --stored-auth-only
 * --header "Authorization: Bearer …" --method …` on Node 22, in its own process. `--stored-auth-only`: a refused
 * token fails the run instead of starting an interactive OAuth sign-in.
 */
export async function runInspectorCli(options: InspectorCliOptions): Promise<InspectorCliRun> {
  const [node, launcher] = await Promise.all([node22(), inspectorLauncher()]);
  const args = [
    launcher,
    '--cli',
    options.endpoint.href,
    '--transport',
    'http',
    '--protocol-era',
    options.era,
    '--format',
    'json',
    '--stored-auth-only',
    '--header',
    `Authorization: Bearer ${options.token}`,
    '--method',
    ...options.method,
  ];
  return runProgram(node, args, { env: { PATH: `${dirname(node)}:/usr/bin:/bin`, HOME: options.home } });
}
