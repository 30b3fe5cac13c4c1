import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { findOnPath } from './executable-lookup';
import { StartFailure } from './start-failure';

// The browser tests drive a real Chromium through playwright-core. We never download a browser build (this
// machine's network reaches only package registries): Debian's `chromium` package is the browser, installed
// by the test setup itself when it runs as root with apt, as on a fresh CI machine (docs/decisions/0018).

export type ProvidedChromium = { path: string; source: 'CHROMIUM_PATH' | 'system' | 'installed' };

export type ProvideChromiumOptions = {
  env: Readonly<Record<string, string | undefined>>;
  prefix: string;
  write: (line: string) => void;
};

export const CHROMIUM_INSTALL_COMMAND = 'sudo apt-get install -y chromium';
const SYSTEM_NAMES = ['chromium', 'chromium-browser'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findSystemChromium(pathVariable: string | undefined): string | undefined {
  for (const name of SYSTEM_NAMES) {
    const found = findOnPath(name, pathVariable);
    if (found) return found;
  }
  return isExecutable('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

/** Runs a command to completion, keeping its output to show only when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; tail: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (error) => resolve({ ok: false, tail: error.message }));
    child.once('close', (code) => resolve({ ok: code === 0, tail: output.trim().split('\n').slice(-3).join(' / ') }));
  });
}

async function installWithApt(options: ProvideChromiumOptions): Promise<string> {
  const aptGet = findOnPath('apt-get', options.env['PATH']);
  if (process.getuid?.() !== 0 || !aptGet) {
    throw new StartFailure(
      `no Chromium for the browser tests: install it (${CHROMIUM_INSTALL_COMMAND}) or set CHROMIUM_PATH to a Chromium binary`,
    );
  }
  options.write(`${options.prefix} Chromium: not found; installing Debian's chromium with apt-get (about a minute)\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = await run(aptGet, ['update', '-q'], env);
  if (!update.ok) throw new StartFailure(`apt-get update failed (${update.tail}); install Chromium with: ${CHROMIUM_INSTALL_COMMAND}`);
  const install = await run(aptGet, ['install', '-y', '-q', 'chromium'], env);
  const path = findSystemChromium(options.env['PATH']);
  if (!install.ok || !path) {
    throw new StartFailure(`apt-get install chromium failed (${install.tail}); install it with: ${CHROMIUM_INSTALL_COMMAND}`);
  }
  return path;
}

/** CHROMIUM_PATH when set; else the system's chromium; else Debian's, installed now when we may. */
export async function provideChromium(options: ProvideChromiumOptions): Promise<ProvidedChromium> {
  const configured = options.env['CHROMIUM_PATH'];
  if (configured) {
    if (!isExecutable(configured)) throw new StartFailure(`CHROMIUM_PATH=${configured} is not an executable file`);
    return { path: configured, source: 'CHROMIUM_PATH' };
  }
  const system = findSystemChromium(options.env['PATH']);
  if (system) return { path: system, source: 'system' };
  return { path: await installWithApt(options), source: 'installed' };
}
