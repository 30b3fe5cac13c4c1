// A transparent wrapper around a stdio MCP server, for tests that must see what reached ONE child: it spawns
// `node <server script> [args...]`, passes stdin, stdout and stderr through, and appends every line its parent
// sent (each a JSON-RPC message) to STDIO_TAP_LOG. A tools/call whose arguments contain STDIO_TAP_HOLD (when set)
// is held: the child answers it, but the answer is never passed on, so the call stays in flight until the test
// cancels it (a cancelled request expects no answer) — deterministic, without timers. Plain JavaScript, no
// dependencies: the gateway runs it as the stdio command (process.execPath, this file, the server's script).
// With STDIO_TAP_LINGER (a file path) it plays a child slow to stop: it appends `started <pid>` there, and when its
// stdin ends it appends `stdin-ended <pid>` and stays alive, ignoring SIGTERM, until it is killed (SIGKILL): what a
// parent's shutdown must wait out.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const log = process.env.STDIO_TAP_LOG;
const hold = process.env.STDIO_TAP_HOLD;
const linger = process.env.STDIO_TAP_LINGER;
const [script, ...args] = process.argv.slice(2);
if (log === undefined || script === undefined) {
  process.stderr.write('stdio-tap: STDIO_TAP_LOG and a server script are required\n');
  process.exit(2);
}

const child = spawn(process.execPath, [script, ...args], {
  stdio: ['pipe', 'pipe', 'inherit'],
  env: process.env,
});
/** Request ids (as JSON) whose answers are held back. */
const held = new Set();

createInterface({ input: process.stdin }).on('line', (line) => {
  appendFileSync(log, `${line}\n`);
  try {
    const message = JSON.parse(line);
    if (
      hold !== undefined &&
      message.method === 'tools/call' &&
      JSON.stringify(message.params?.arguments ?? {}).includes(hold)
    )
      held.add(JSON.stringify(message.id));
  } catch {
    // Not JSON: passed on as it is; the server answers it.
  }
  child.stdin.write(`${line}\n`);
});
if (linger === undefined) process.stdin.on('end', () => child.stdin.end());
else {
  appendFileSync(linger, `started ${process.pid}\n`);
  process.stdin.on('end', () => {
    appendFileSync(linger, `stdin-ended ${process.pid}\n`);
    setInterval(() => undefined, 60_000);
  });
}

createInterface({ input: child.stdout }).on('line', (line) => {
  try {
    const message = JSON.parse(line);
    if ('id' in message && held.has(JSON.stringify(message.id)) && !('method' in message)) return;
  } catch {
    // Passed on as it is.
  }
  process.stdout.write(`${line}\n`);
});

child.on('exit', (code, signal) => {
  if (linger === undefined) process.exit(code ?? (signal === null ? 0 : 1));
});
for (const name of ['SIGTERM', 'SIGINT'])
  process.on(name, () => {
    if (linger === undefined) child.kill(name);
  });
