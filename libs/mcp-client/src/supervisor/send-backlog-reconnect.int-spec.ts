import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { superviseAdmitted, type ConnectionSupervisor, type SupervisorEvent } from '../index';

// A child that stops reading its stdin while its requests are answered (here: pings with 64 KiB ids, which every
// answer echoes) is failed once more than the send bound is queued for it (decision 0130), and the supervisor
// reconnects only after a backoff wait: a server that does it at once every time is not respawned in a loop.

jest.setTimeout(60_000);

const NODE = process.execPath;

const STOPS_READING = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
rl.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize')
    answer(message.id, { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stops-reading', version: '1.0.0' } });
  else if (message.method === 'tools/list') {
    answer(message.id, { tools: [] });
    rl.close();
    process.stdin.pause();
    for (let i = 0; i < 200; i += 1)
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: String(i).padEnd(65536, 'x'), method: 'ping' }) + '\\n');
  }
});
setInterval(() => undefined, 1000);
`;

let dir: string;
let supervisor: ConnectionSupervisor | undefined;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gh-send-backlog-')));
  await writeFile(join(dir, 'stops-reading.cjs'), STOPS_READING);
});

afterAll(async () => {
  await supervisor?.close();
  await rm(dir, { recursive: true, force: true });
});

it('fails a child that leaves more than the send bound unread, and reconnects only after a backoff wait', async () => {
  const ceiling = [NODE, join(dir, 'stops-reading.cjs')];
  const statuses: string[] = [];
  const delays: number[] = [];
  let backoffAsked: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => (backoffAsked = resolve));
  supervisor = superviseAdmitted(
    {
      kind: 'stdio',
      command: NODE,
      args: ceiling.slice(1),
      env: {},
      cwd: dir,
      authority: { commands: [ceiling], ceiling: [ceiling], allowedRoots: [dir], runAs: null, envKeys: [] },
      startupTimeoutMs: null,
    },
    {
      connect: {
        serverName: 'stops-reading',
        clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
        defaultStartupTimeoutMs: 20_000,
        searchPath: dirname(NODE),
        closeGraceMs: 200,
        canSwitchUser: false,
      },
      backoff: { baseMs: 1_000, maxMs: 1_000, maxAttempts: 3 },
      random: () => 0,
      // The backoff is recorded and then held until close: the test ends before any second child starts.
      delay: (ms, signal) => {
        delays.push(ms);
        backoffAsked();
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      },
      onEvent: (event: SupervisorEvent) => {
        if (event.type === 'status') statuses.push(event.status);
      },
    },
  );
  expect(await supervisor.start()).toBe('ready');
  await asked;
  expect(statuses).toEqual(['connecting', 'ready', 'reconnecting']);
  expect(delays).toEqual([500]);
});
