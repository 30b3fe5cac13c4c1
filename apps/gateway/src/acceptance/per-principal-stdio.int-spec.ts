import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  readTap,
  STDIO_TAP_SCRIPT,
  TEST_DATABASE_TIMEOUT_MS,
  waitForTap,
  type TappedMessage,
} from '@gatehouse/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  connectSdkClient,
  ROOT_DIR,
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from './gateway-stack.harness';

// The gateway's acceptance (docs/architecture/gateway.md): two principals on a stateful stdio upstream never
// see each other's data. Alice and Bob each define their own `memory` server
// (@modelcontextprotocol/server-memory, user tier, approved for each alone, each with its own memory file),
// so both call the same names (mcp__memory__*) through the same workspace gateway. The gateway gives each
// principal their own child: what one creates never appears in the other's reads, and one's cancellation
// never reaches the other's child. Each child runs under the stdio tap (libs/testing), which records every
// message its parent sent it and holds the answer of a call naming the hold marker, so a cancellation can be
// sent while that call is still in flight at the child.

jest.setTimeout(180_000);

const MEMORY = join(ROOT_DIR, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const HOLD = `hold-${randomBytes(6).toString('hex')}`;

let stack: GatewayStack;
let gateway: StartedGateway;
const files = (who: 'alice' | 'bob') => ({
  memory: join(stack.root, `${who}-memory.jsonl`),
  tap: join(stack.root, `${who}.tap`),
});

const toolCalls = (messages: TappedMessage[]) =>
  messages.filter((message) => message.method === 'tools/call');
const text = (result: Awaited<ReturnType<Client['callTool']>>) => JSON.stringify(result.content);

beforeAll(async () => {
  stack = await startGatewayStack({
    name: 'per-principal-stdio',
    stdioCommands: [[process.execPath, STDIO_TAP_SCRIPT, MEMORY]],
    // The memory server's file and the tap's own settings: names only these programs read.
    childEnvKeys: ['MEMORY_FILE_PATH', 'STDIO_TAP_LOG', 'STDIO_TAP_HOLD'],
  });
  for (const who of ['alice', 'bob'] as const) {
    await stack.defineServers(who, 'user', {
      memory: {
        type: 'stdio',
        command: process.execPath,
        args: [STDIO_TAP_SCRIPT, MEMORY],
        env: { MEMORY_FILE_PATH: files(who).memory, STDIO_TAP_LOG: files(who).tap, STDIO_TAP_HOLD: HOLD },
      },
    });
    await stack.approve('memory', 'principal', who);
    await stack.discoverAndSubmit('memory', stack.users[who].id);
  }
  gateway = await stack.startGateway();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
}, TEST_DATABASE_TIMEOUT_MS);

describe('two principals on @modelcontextprotocol/server-memory through one workspace gateway', () => {
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    alice = await connectSdkClient(gateway.endpoint(), stack.tokens.alice);
    bob = await connectSdkClient(gateway.endpoint(), stack.tokens.bob);
  });

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
  });

  it('each sees the same namespaced tools, served by their own server', async () => {
    for (const client of [alice, bob]) {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['mcp__memory__create_entities', 'mcp__memory__read_graph']),
      );
    }
  });

  it('what one creates never appears in the other’s reads', async () => {
    const entity = (who: string) => ({
      name: `${who}-project`,
      entityType: 'project',
      observations: [`${who} only`],
    });
    await alice.callTool({
      name: 'mcp__memory__create_entities',
      arguments: { entities: [entity('alice')] },
    });
    await bob.callTool({ name: 'mcp__memory__create_entities', arguments: { entities: [entity('bob')] } });

    const aliceGraph = text(await alice.callTool({ name: 'mcp__memory__read_graph', arguments: {} }));
    const bobGraph = text(await bob.callTool({ name: 'mcp__memory__read_graph', arguments: {} }));
    expect(aliceGraph).toContain('alice-project');
    expect(aliceGraph).not.toContain('bob');
    expect(bobGraph).toContain('bob-project');
    expect(bobGraph).not.toContain('alice');
    const bobSearch = text(
      await bob.callTool({ name: 'mcp__memory__search_nodes', arguments: { query: 'alice' } }),
    );
    expect(bobSearch).not.toContain('alice-project');
    const opened = text(
      await bob.callTool({ name: 'mcp__memory__open_nodes', arguments: { names: ['alice-project'] } }),
    );
    expect(opened).not.toContain('alice only');

    // Two children, each sent only its own principal's writes (and each one's state in its own file).
    const creations = async (who: 'alice' | 'bob') =>
      JSON.stringify(
        toolCalls(await readTap(files(who).tap)).filter(
          (call) => call.params?.['name'] === 'create_entities',
        ),
      );
    expect(await creations('alice')).toContain('alice-project');
    expect(await creations('alice')).not.toContain('bob-project');
    expect(await creations('bob')).toContain('bob-project');
    expect(await creations('bob')).not.toContain('alice-project');
    expect(await readFile(files('bob').memory, 'utf8')).not.toContain('alice');
  });

  it('one principal’s cancellation reaches their own child only, and the other’s calls go on', async () => {
    const abort = new AbortController();
    const held = alice.callTool(
      { name: 'mcp__memory__search_nodes', arguments: { query: HOLD } },
      undefined,
      {
        signal: abort.signal,
      },
    );
    const refusal = expect(held).rejects.toThrow();
    // The call is at Alice's child (which holds its answer): cancel it there.
    const atChild = await waitForTap(files('alice').tap, (message) =>
      JSON.stringify(message.params ?? {}).includes(HOLD),
    );
    const forwarded = atChild.find((message) => JSON.stringify(message.params ?? {}).includes(HOLD));
    abort.abort('acceptance test');
    await refusal;
    const cancelled = await waitForTap(
      files('alice').tap,
      (message) => message.method === 'notifications/cancelled',
    );
    expect(cancelled.find((message) => message.method === 'notifications/cancelled')?.params).toMatchObject({
      requestId: forwarded?.id,
    });

    // Bob's child was sent no cancellation, and his calls still answer.
    const after = text(await bob.callTool({ name: 'mcp__memory__read_graph', arguments: {} }));
    expect(after).toContain('bob-project');
    const bobTap = await readTap(files('bob').tap);
    expect(bobTap.filter((message) => message.method === 'notifications/cancelled')).toEqual([]);
    expect(JSON.stringify(bobTap)).not.toContain(HOLD);
  });
});
