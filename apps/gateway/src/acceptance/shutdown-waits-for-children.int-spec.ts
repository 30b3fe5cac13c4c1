import { join } from 'node:path';
import { STDIO_TAP_SCRIPT, TEST_DATABASE_TIMEOUT_MS, waitForLine } from '@gatehouse/testing';
import {
  connectSdkClient,
  ROOT_DIR,
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from './gateway-stack.harness';

// A gateway that shuts down leaves no child behind, including one whose connection was already closing when the
// shutdown began (its lease dropped by a revocation): the shutdown waits for that close to end, the child's grace
// and SIGKILL included, instead of finding the upstream gone from its pool and returning while the child still runs
// (and writes into directories its operator is about to remove). The child is the stdio tap in its lingering mode:
// it ignores the end of its stdin and SIGTERM, so only the close's last step (SIGKILL of its group) ends it.

jest.setTimeout(120_000);

const MEMORY = join(ROOT_DIR, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

let stack: GatewayStack;
let gateway: StartedGateway;
let approvalId: string;
const lingerLog = () => join(stack.root, 'linger.log');

beforeAll(async () => {
  stack = await startGatewayStack({
    name: 'shutdown-waits',
    stdioCommands: [[process.execPath, STDIO_TAP_SCRIPT, MEMORY]],
    childEnvKeys: ['MEMORY_FILE_PATH', 'STDIO_TAP_LOG', 'STDIO_TAP_LINGER'],
  });
  await stack.defineServers('admin', 'managed', {
    memory: {
      type: 'stdio',
      command: process.execPath,
      args: [STDIO_TAP_SCRIPT, MEMORY],
      env: {
        MEMORY_FILE_PATH: join(stack.root, 'memory.jsonl'),
        STDIO_TAP_LOG: join(stack.root, 'memory.tap'),
        STDIO_TAP_LINGER: lingerLog(),
      },
    },
  });
  approvalId = await stack.approve('memory');
  await stack.discoverAndSubmit('memory');
  // A grace long enough that a shutdown not waiting for the close is over well before the child's SIGKILL (at twice
  // the grace: SIGTERM, which it ignores, then SIGKILL): a gateway's close takes well under a second (decision 0139
  // measured 40-450 ms under load), and this spec waits out both graces, so no longer than that.
  gateway = await stack.startGateway({ CHILD_CLOSE_GRACE_MS: '2000' });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
}, TEST_DATABASE_TIMEOUT_MS);

const pidsStarted = async (): Promise<Set<string>> =>
  new Set(
    (await waitForLine(lingerLog(), () => true))
      .filter((line) => line.startsWith('started '))
      .map((line) => line.slice('started '.length)),
  );

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('waits for a child whose connection a revocation was already closing', async () => {
  // Discovery's child started (and was closed) before the gateway: the gateway's child is the next one.
  const before = await pidsStarted();
  const client = await connectSdkClient(gateway.endpoint(), stack.tokens.alice);
  await client.callTool({ name: 'mcp__memory__read_graph', arguments: {} });
  const started = await waitForLine(
    lingerLog(),
    (line) => line.startsWith('started ') && !before.has(line.slice('started '.length)),
  );
  const pid = Number(
    started
      .filter((line) => line.startsWith('started '))
      .map((line) => line.slice('started '.length))
      .find((candidate) => !before.has(candidate)),
  );
  expect(isRunning(pid)).toBe(true);
  await client.close();

  await stack.expectStatus('admin', 'POST', `/v1/approvals/${approvalId}/revoke`, 200, {
    reason: 'shutdown test',
  });
  // The revocation reached the gateway and its upstream began closing: the child's stdin ended.
  await waitForLine(lingerLog(), (line) => line === `stdin-ended ${pid}`);

  await gateway.close();
  expect(isRunning(pid)).toBe(false);
});
