import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startHttpUpstream, type HttpUpstream } from '../test-support/mcp-http-upstream';

// `gatehouse connect` as a desktop client runs it: `node bin/gatehouse.cjs connect <url>` spawned by a real SDK
// client over stdio, bridging to a real Streamable HTTP MCP server that requires the token from GATEHOUSE_TOKEN.
// (The end to end through the gateway, driven by the Inspector CLI, is gateway-connect.int-spec.ts.)

jest.setTimeout(60_000);

const BIN = resolve(__dirname, '../../../../bin/gatehouse.cjs');
const TOKEN = 'ghu_connectspectokenconnectspectoken';
let upstream: HttpUpstream;

beforeAll(async () => {
  upstream = await startHttpUpstream(TOKEN);
});

afterAll(async () => {
  await upstream?.stop();
});

function bridgeEnv(token: string | undefined): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...(token !== undefined ? { GATEHOUSE_TOKEN: token } : {}),
  };
}

async function connectClient(): Promise<{
  client: Client;
  stderr: string[];
  transport: StdioClientTransport;
}> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'connect', upstream.url, '--keepalive-ms', '1000'],
    env: bridgeEnv(TOKEN),
    stderr: 'pipe',
    cwd: resolve(__dirname, '../../../..'),
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) =>
    stderr.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
  );
  const client = new Client({ name: 'connect-spec', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr, transport };
}

/** Runs the bridge to its end without a client: its exit code and stderr. */
function runBridge(
  args: string[],
  token: string | undefined,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: bridgeEnv(token),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => done({ code, stderr }));
  });
}

describe('gatehouse connect', () => {
  it('serves the upstream tools over stdio, with the token as a header, and relays progress', async () => {
    const { client, stderr, transport } = await connectClient();
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'echo',
        'slow',
        'steps',
        'grow',
        'hang',
      ]);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toMatchObject({
        content: [{ type: 'text', text: 'echo: hi' }],
      });
      // What the bridge wrote, read ahead of the SDK client's Protocol (which may drop a progress notification read
      // in the same chunk as its result: the SDK limit libs/mcp-client's CallProgressRelay works around).
      const written: Record<string, unknown>[] = [];
      const protocol = transport.onmessage;
      transport.onmessage = (message) => {
        written.push(message as Record<string, unknown>);
        protocol?.(message);
      };
      await client.callTool({ name: 'steps', arguments: {} }, undefined, { onprogress: () => undefined });
      const call = written.findIndex((message) => 'result' in message);
      const progress = written.filter((message) => message['method'] === 'notifications/progress');
      expect(progress.map((message) => message['params'])).toEqual([
        { progressToken: expect.anything(), progress: 1, total: 2, message: 'step 1' },
        { progressToken: expect.anything(), progress: 2, total: 2, message: 'step 2' },
      ]);
      // Under the token the client chose (its request id), and both before the result.
      const token = (progress[0]?.['params'] as { progressToken: unknown }).progressToken;
      expect(written[call]?.['id']).toBe(token);
      expect(progress.every((message) => written.indexOf(message) < call)).toBe(true);
      expect([...upstream.events.authorizations]).toEqual([`Bearer ${TOKEN}`]);
      expect(stderr.join('\n')).not.toContain(TOKEN);
    } finally {
      await client.close();
    }
  });

  it('forwards a cancellation to the upstream call', async () => {
    const { client } = await connectClient();
    try {
      const controller = new AbortController();
      const call = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: controller.signal });
      await upstream.events.slowStarted;
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow();
      await upstream.events.slowCancelled;
      expect(upstream.events.cancelled).toEqual(['slow']);
    } finally {
      await client.close();
    }
  });

  it("forwards the upstream's list_changed, and reconnects after the upstream lost its sessions", async () => {
    const { client, stderr } = await connectClient();
    try {
      let changed = 0;
      let notify: () => void = () => undefined;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed += 1;
        notify();
      });
      const first = new Promise<void>((done) => (notify = done));
      await client.callTool({ name: 'grow', arguments: {} });
      await first;
      expect(changed).toBe(1);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('grown');

      // The upstream restarts on the same port: every session it had is gone.
      await upstream.stop();
      await upstream.start();
      const again = new Promise<void>((done) => (notify = done));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
      await again; // after a reconnect the client is told its lists may have changed
      expect(changed).toBe(2);
      expect(stderr.join('\n')).toContain('reconnected to http://127.0.0.1:');
    } finally {
      await client.close();
    }
  });

  it('a tool call in flight when the upstream goes away fails with an error saying it may have run', async () => {
    const { client } = await connectClient();
    try {
      const call = client.callTool({ name: 'hang', arguments: {} });
      await upstream.events.hangStarted;
      await upstream.stop();
      await upstream.start();
      await expect(call).rejects.toThrow(/lost during the call; it may or may not have run/);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    } finally {
      await client.close();
    }
  });

  it('exits 1 when the token is refused, 2 without one, 3 when nothing answers, never echoing the token', async () => {
    const refused = await runBridge(['connect', upstream.url], 'ghu_wrongtokenwrongtokenwrongtoken');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused the token (GATEHOUSE_TOKEN)');
    expect(refused.stderr).not.toContain('ghu_wrongtoken');
    expect((await runBridge(['connect', upstream.url], undefined)).code).toBe(2);
    const unreachable = await runBridge(['connect', 'http://127.0.0.1:9/mcp'], TOKEN);
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain('cannot reach the gateway at http://127.0.0.1:9');
    const help = await runBridge(['connect', '--help'], undefined);
    expect(help.code).toBe(0);
  });
});
