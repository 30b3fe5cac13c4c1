import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { RESULT_CAP_META_KEY } from '../results/result-cap.policy';
import { ConnectionSupervisor, type Connector } from '../supervisor/connection-supervisor';
import { EventRecorder } from '../supervisor/test-support/event-recorder';
import { discoverCatalog } from './catalog-discovery';
import { createEdgeServer, makeTools, type EdgeServerOptions } from './test-support/edge-servers';
import {
  connectOverHttp,
  serveOverHttp,
  type HttpClient,
  type LoopbackServer,
} from './test-support/loopback-http';

// Discovery and supervision against real servers over real transports: @modelcontextprotocol/server-everything
// (nobody here wrote it) over stdio and Streamable HTTP, and low-level SDK servers on 127.0.0.1 for the edges.
// The SDK's own HTTP client transport is used here; the admitted transports of this lib plug in the same way.

const everythingEntry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

describe('discovery of @modelcontextprotocol/server-everything', () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'gh-everything-'));
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  function expectEverything(discovery: Awaited<ReturnType<typeof discoverCatalog>>) {
    expect(discovery.complete).toBe(true);
    expect(discovery.lists.tools.state).toBe('complete');
    expect(discovery.lists.prompts.state).toBe('complete');
    expect(discovery.lists.resources.state).toBe('complete');
    expect(discovery.lists.resourceTemplates.state).toBe('complete');
    const names = discovery.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo']));
    expect(discovery.prompts.length).toBeGreaterThan(0);
    expect(discovery.resources.length).toBeGreaterThan(0);
    for (const tool of discovery.tools) expect(tool.inputSchema.type).toBe('object');
  }

  it('over stdio: every declared list drained, every schema narrowed', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [everythingEntry, 'stdio'],
      cwd,
      env: { PATH: '/usr/bin:/bin', HOME: cwd, LOGNAME: '', SHELL: '', TERM: '', USER: '' },
      stderr: 'pipe',
    });
    // Drained, never read.
    (transport.stderr as Readable | null)?.resume();
    const client = new Client({ name: 'gatehouse-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      const discovery = await discoverCatalog(client, { requestTimeoutMs: 20_000 });
      expectEverything(discovery);
    } finally {
      await client.close();
    }
  });

  it('over Streamable HTTP on loopback', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [everythingEntry, 'streamableHttp'], {
      cwd,
      env: { PATH: '/usr/bin:/bin', HOME: cwd, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    try {
      await listening(child);
      const { client } = await connectOverHttp(new URL(`http://127.0.0.1:${port}/mcp`));
      try {
        expectEverything(await discoverCatalog(client, { requestTimeoutMs: 20_000 }));
      } finally {
        await client.close();
      }
    } finally {
      await stop(child);
    }
  });
});

describe('discovery and supervision edges over loopback Streamable HTTP', () => {
  const servers: LoopbackServer[] = [];
  const clients: HttpClient[] = [];
  const supervisors: ConnectionSupervisor[] = [];
  afterEach(async () => {
    await Promise.all(supervisors.splice(0).map((s) => s.close()));
    await Promise.all(clients.splice(0).map((c) => c.client.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  const serve = async (options: EdgeServerOptions) => {
    const served = await serveOverHttp(createEdgeServer(options));
    servers.push(served);
    return served;
  };
  const connect = async (options: EdgeServerOptions) => {
    const connected = await connectOverHttp((await serve(options)).url);
    clients.push(connected);
    return connected.client;
  };
  const connectorTo = (url: () => URL, opened: HttpClient[] = []): Connector => {
    return async () => {
      const connected = await connectOverHttp(url());
      opened.push(connected);
      return {
        ok: true,
        connection: {
          client: connected.client,
          protocolVersion: connected.protocolVersion() ?? 'unknown',
          close: () => connected.client.close(),
        },
      };
    };
  };

  it('drains real pagination: 1,000 tools in pages of 100', async () => {
    const client = await connect({ tools: makeTools(1_000), pageSize: 100 });
    const discovery = await discoverCatalog(client);
    expect(discovery.complete).toBe(true);
    expect(discovery.lists.tools).toEqual({ state: 'complete', pages: 10 });
    expect(new Set(discovery.tools.map((t) => t.name)).size).toBe(1_000);
  });

  it('stops an endless cursor at the page bound', async () => {
    const client = await connect({ cursor: 'endless' });
    const discovery = await discoverCatalog(client, { maxPages: 25 });
    expect(discovery.complete).toBe(false);
    expect(discovery.lists.tools).toEqual({
      state: 'failed',
      pages: 25,
      failure: { reason: 'page_bound', page: 26 },
    });
  });

  it('names a cursor the server refuses, and a repeating one', async () => {
    const refused = await discoverCatalog(
      await connect({ tools: makeTools(20), pageSize: 5, cursor: 'refused' }),
    );
    expect(refused.lists.tools).toMatchObject({
      state: 'failed',
      failure: { reason: 'server_error', page: 2 },
    });
    const repeating = await discoverCatalog(
      await connect({ tools: makeTools(20), pageSize: 5, cursor: 'repeating' }),
    );
    expect(repeating.lists.tools).toMatchObject({ state: 'failed', failure: { reason: 'repeated_cursor' } });
    expect(refused.complete || repeating.complete).toBe(false);
  });

  it('withholds an oversized result through the supervisor', async () => {
    const served = await serve({
      tools: [{ name: 'dump', inputSchema: { type: 'object' }, _meta: { [RESULT_CAP_META_KEY]: 2_000 } }],
      callText: () => 'z'.repeat(250_000),
    });
    const supervisor = new ConnectionSupervisor({
      serverId: 'http-1',
      connect: connectorTo(() => served.url),
    });
    supervisors.push(supervisor);
    expect(await supervisor.start()).toBe('ready');
    expect(await supervisor.callTool('dump')).toMatchObject({
      ok: true,
      withheld: { chars: 250_000, maxChars: 2_000 },
      result: { isError: true },
    });
  });

  it('list_changed then a failing list: the old catalog is kept, marked stale', async () => {
    let failing = false;
    const edge = createEdgeServer({ tools: makeTools(4), failListing: () => failing });
    const served = await serveOverHttp(edge);
    servers.push(served);
    const recorder = new EventRecorder();
    const supervisor = new ConnectionSupervisor({
      serverId: 'http-2',
      connect: connectorTo(() => served.url),
      onEvent: recorder.listener,
    });
    supervisors.push(supervisor);
    await supervisor.start();
    failing = true;
    const stale = recorder.next((e) => e.type === 'catalog');
    await edge.sendToolListChanged();
    expect(await stale).toMatchObject({ change: 'stale' });
    expect(supervisor.catalog?.stale).toBe(true);
    expect(supervisor.catalog?.discovery.tools).toHaveLength(4);
  });

  it('a server version change across a reconnect invalidates the catalog', async () => {
    const v1 = await serve({ version: '1.0.0', tools: makeTools(2) });
    const v2 = await serve({ version: '2.0.0', tools: makeTools(3) });
    let target = v1.url;
    const opened: HttpClient[] = [];
    const recorder = new EventRecorder();
    const supervisor = new ConnectionSupervisor({
      serverId: 'http-3',
      connect: connectorTo(() => target, opened),
      onEvent: recorder.listener,
    });
    supervisors.push(supervisor);
    await supervisor.start();
    expect(supervisor.catalog?.identity).toMatchObject({
      serverVersion: '1.0.0',
      protocolVersion: '2025-11-25',
    });

    target = v2.url;
    const ready = recorder.next((e) => e.type === 'status' && e.status === 'ready');
    await opened[0]?.transport.close();
    await ready;
    expect(recorder.summary().slice(3)).toEqual([
      'status:reconnecting',
      'catalog:invalidated',
      'catalog:discovered',
      'status:ready',
    ]);
    expect(supervisor.catalog?.identity.serverVersion).toBe('2.0.0');
    expect(supervisor.catalog?.discovery.tools).toHaveLength(3);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (/listening on port/i.test(seen)) resolve();
    });
    child.once('exit', () => reject(new Error('server-everything exited before listening')));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}
