import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { superviseAdmitted, type ConnectionSupervisor } from '../index';

// The notification gate (decision 0130) bounds what an upstream's NOTIFICATIONS cost, but a message with an id is
// a request, and requests pass the gate unread: the SDK's Protocol answers each (`ping` with {}, any other method
// with -32601), and every answer is written to the child's stdin. A child that never reads its stdin holds every
// answer, and the request's handler state, in the worker's or gateway's heap (measured here: 50,000 pings, about
// 2.3 MB written, kept about 160 MB after a full GC; the same flood from a child that reads its stdin keeps about
// nothing). The gateway is shared by every tenant; one upstream can exhaust it.
//
// Expected: a request flood is bounded like a notification flood (spent from the same budget, or answers not
// written past a bound on what the child has not read), so the heap stays near where it was.

jest.setTimeout(60_000);

const NODE = process.execPath;
const PINGS = 50_000;
/** What the heap may keep after the flood (the unbounded path keeps about 30 MB for 50,000 pings). */
const HEAP_BOUND_BYTES = 8 * 1024 * 1024;

/**
 * A server that answers initialize and tools/list, then sends pings and a log line; with no argument it stops
 * reading its stdin first (the attack), with `reads` it keeps reading (the control).
 */
const FLOODER = `
const reads = process.argv[2] === 'reads';
const rl = require('node:readline').createInterface({ input: process.stdin });
const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
rl.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize')
    answer(message.id, { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'flooder', version: '1.0.0' } });
  else if (message.method === 'tools/list') {
    answer(message.id, { tools: [] });
    if (!reads) {
      rl.close();
      process.stdin.pause();
    }
    let i = 0;
    const pump = () => {
      while (i < ${PINGS}) {
        i += 1;
        if (!process.stdout.write('{"jsonrpc":"2.0","id":' + i + ',"method":"ping"}\\n')) return void process.stdout.once('drain', pump);
      }
      process.stdout.write('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"end"}}\\n');
    };
    pump();
  }
});
setInterval(() => undefined, 1000);
`;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let dir: string;
const supervisors: ConnectionSupervisor[] = [];

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gh-request-flood-')));
  await writeFile(join(dir, 'flooder.cjs'), FLOODER);
});

afterAll(async () => {
  await Promise.all(supervisors.map((supervisor) => supervisor.close()));
  await rm(dir, { recursive: true, force: true });
});

/** How much the heap grew (after a full GC) once the flood from a child started with `extraArgs` was handled. */
async function heapGrowthAfterFlood(extraArgs: readonly string[]): Promise<number> {
  const ceiling = [NODE, join(dir, 'flooder.cjs')];
  let ended: () => void = () => undefined;
  const floodEnded = new Promise<void>((resolve) => (ended = resolve));
  const supervisor = superviseAdmitted(
    {
      kind: 'stdio',
      command: NODE,
      args: [...ceiling.slice(1), ...extraArgs],
      env: {},
      cwd: dir,
      authority: { commands: [ceiling], ceiling: [ceiling], allowedRoots: [dir], runAs: null, envKeys: [] },
      startupTimeoutMs: null,
    },
    {
      connect: {
        serverName: 'flooder',
        clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
        defaultStartupTimeoutMs: 20_000,
        searchPath: dirname(NODE),
        closeGraceMs: 200,
        canSwitchUser: false,
      },
      // The log line after the pings is read only once every ping before it was: the flood has been handled.
      onDroppedNotification: (method) => {
        if (method === 'notifications/message') ended();
      },
    },
  );
  supervisors.push(supervisor);
  gc();
  const before = process.memoryUsage().heapUsed;
  expect(await supervisor.start()).toBe('ready');
  await floodEnded;
  gc();
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  await supervisor.close();
  return grown;
}

it('control: the same flood from a child that reads its stdin keeps the heap within the bound', async () => {
  expect(await heapGrowthAfterFlood(['reads'])).toBeLessThan(HEAP_BOUND_BYTES);
});

it('an upstream that floods requests and never reads its stdin does not grow the heap without bound', async () => {
  expect(await heapGrowthAfterFlood([])).toBeLessThan(HEAP_BOUND_BYTES);
});
