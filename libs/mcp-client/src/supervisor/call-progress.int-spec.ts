import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { superviseAdmitted, type CallProgress, type ConnectionSupervisor } from '../index';

// A call's progress is delivered before the call settles, whatever the timing: the fixture writes three progress
// notifications and the result in one write, so the client reads them in one chunk. The SDK's Protocol runs a
// notification's handler a microtask later but settles a response at once (and forgets the call's progress
// handler), so without our own dispatch the progress in that chunk arrived after the result or was dropped.

const NODE = process.execPath;
const FIXTURE = join(__dirname, 'test-support/progress-server.fixture.cjs');

let root: string;
let supervisor: ConnectionSupervisor | undefined;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-progress-')));
});
afterEach(async () => {
  await supervisor?.close();
  supervisor = undefined;
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('ConnectionSupervisor.callTool progress', () => {
  it('delivers every progress of the call before its result, even in the same chunk', async () => {
    supervisor = superviseAdmitted(
      {
        kind: 'stdio',
        command: NODE,
        args: [FIXTURE],
        env: {},
        cwd: null,
        authority: { commands: [[NODE]], ceiling: [[NODE]], allowedRoots: [root], envKeys: [], runAs: null },
        startupTimeoutMs: 30_000,
      },
      {
        serverId: 'progress',
        connect: {
          serverName: 'progress',
          clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
          defaultStartupTimeoutMs: 30_000,
          searchPath: `${dirname(NODE)}:/usr/bin:/bin`,
          canSwitchUser: false, // children run as the test itself: the checkout may be out of nobody's reach
          closeGraceMs: 500,
        },
      },
    );
    expect(await supervisor.start()).toBe('ready');
    for (let round = 0; round < 3; round += 1) {
      const seen: (CallProgress | 'result')[] = [];
      const called = supervisor.callTool('steps', {}, { onProgress: (progress) => seen.push(progress) });
      const outcome = await called;
      seen.push('result');
      expect(outcome.ok).toBe(true);
      expect(seen).toEqual([
        { progress: 1, total: 3 },
        { progress: 2, total: 3 },
        { progress: 3, total: 3 },
        'result',
      ]);
    }
  });
});
