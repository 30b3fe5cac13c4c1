import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { catalogDocumentV1, type AdmittedTransportDescription } from '@gatehouse/contracts';
import {
  catalogDocumentOf,
  superviseAdmitted,
  type ConnectionSupervisor,
  type ConnectOptions,
  type SupervisorEvent,
} from '../index';

// End to end through the public entry point: from an admitted transport description (what a lease carries) to
// a catalog document, against @modelcontextprotocol/server-everything (nobody here wrote it) over stdio and over
// Streamable HTTP on loopback: connect, the initial listing under the startup bound, supervision, the listing
// mapped onto libs/catalog, names minted as mcp__everything__<tool>.

const ROOT_DIR = resolve(__dirname, '../../../..');
const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
const NODE = process.execPath;
const SEARCH_PATH = `${dirname(NODE)}:/usr/bin:/bin`;
const SOURCE = { tier: 'managed', origin: 'managed:org-policy' } as const;
const FETCHED_AT = '2026-12-01T12:00:00.000Z';

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-13e-everything-')));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const connect: ConnectOptions = {
  serverName: 'everything',
  clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
  defaultStartupTimeoutMs: 30_000,
  searchPath: SEARCH_PATH,
  canSwitchUser: false, // children run as the test itself: the checkout may be out of nobody's reach
  closeGraceMs: 500,
};

const supervisors: ConnectionSupervisor[] = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.close()));
});

async function supervised(description: AdmittedTransportDescription) {
  const events: SupervisorEvent[] = [];
  const supervisor = superviseAdmitted(description, { connect, onEvent: (e) => events.push(e) });
  supervisors.push(supervisor);
  expect(await supervisor.start()).toBe('ready');
  return { supervisor, events };
}

function expectEverythingDocument(supervisor: ConnectionSupervisor, protocolVersion: string) {
  const catalog = supervisor.catalog;
  if (catalog === undefined) throw new Error('no catalog');
  expect(catalog.complete).toBe(true);
  const document = catalogDocumentOf(catalog, { source: SOURCE, fetchedAt: FETCHED_AT });
  // What the snapshot, the catalog lease and the gateway parse: the strict schema accepts it.
  expect(catalogDocumentV1.parse(document)).toEqual(document);
  expect(document.complete).toBe(true);
  expect(document.stale).toBe(false);
  expect(document.servers).toHaveLength(1);
  const [server] = document.servers;
  if (server === undefined) throw new Error('no server');
  expect(server.identity).toEqual({
    server: 'everything',
    protocolVersion,
    // server-everything is a 2025-era server: the http probe for 2026-07-28 fell back to initialize.
    protocolEra: 'legacy',
    serverVersion: catalog.identity.serverVersion,
  });
  // The version server-everything announces in initialize (not its package's version).
  expect(server.identity.serverVersion).toMatch(/^\d+\.\d+\.\d+/);
  expect(server.complete).toBe(true);
  // Every tool the server listed is mounted, under its own minted name.
  expect(server.tools.map((t) => t.remoteName)).toEqual(catalog.discovery.tools.map((t) => t.name));
  expect(server.tools.length).toBeGreaterThan(5);
  for (const tool of server.tools) {
    expect(tool.name).toMatch(/^mcp__everything__[A-Za-z0-9_-]+$/);
    expect(tool.name.length).toBeLessThanOrEqual(64);
    expect(tool.source).toEqual(SOURCE);
    // No option vouched for it: fail-closed axes.
    expect(tool.axes).toMatchObject({ effect: 'write', egress: true });
  }
  expect(server.tools.map((t) => t.name)).toContain('mcp__everything__echo');
  expect(new Set(server.tools.map((t) => t.name)).size).toBe(server.tools.length);
  expect(server.prompts.length).toBe(catalog.discovery.prompts.length);
  expect(server.prompts.length).toBeGreaterThan(0);
  for (const prompt of server.prompts) expect(prompt.name).toMatch(/^mcp__everything__/);
  expect(server.resources.length).toBe(catalog.discovery.resources.length);
  expect(server.diagnostics.filter((d) => d.code === 'listing_failed')).toEqual([]);
  expect(document.diagnostics.filter((d) => d.code === 'name_collision')).toEqual([]);
  return document;
}

function textOf(result: { content?: unknown }): string {
  return (result.content as { text?: string }[]).map((part) => part.text ?? '').join('');
}

describe('superviseAdmitted: server-everything from an admitted description to a catalog document', () => {
  it('over stdio', async () => {
    const { supervisor, events } = await supervised({
      kind: 'stdio',
      command: EVERYTHING,
      args: ['stdio'],
      env: {},
      cwd: null,
      authority: {
        commands: [[EVERYTHING]],
        ceiling: [[EVERYTHING]],
        allowedRoots: [root],
        envKeys: [],
        runAs: null,
      },
      startupTimeoutMs: 30_000,
    });
    expectEverythingDocument(supervisor, '2025-11-25');
    expect(events).toContainEqual(expect.objectContaining({ type: 'catalog', change: 'discovered' }));
    const echoed = await supervisor.callTool('echo', { message: 'through the supervisor' });
    if (!echoed.ok) throw new Error(`call failed: ${echoed.reason}`);
    expect(textOf(echoed.result)).toContain('through the supervisor');
  });

  describe('over Streamable HTTP on loopback', () => {
    let child: ChildProcess;
    let port: number;

    beforeAll(async () => {
      port = await freePort();
      child = spawn(NODE, [EVERYTHING, 'streamableHttp'], {
        cwd: root,
        env: { PATH: SEARCH_PATH, HOME: root, PORT: String(port) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      await listening(child);
    });

    afterAll(async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    });

    it('through the pinned egress fetch, to the addresses the lease checked', async () => {
      const { supervisor } = await supervised({
        kind: 'http',
        // No DNS knows this name: only the lease's checked address makes it reachable.
        url: `http://everything.gatehouse.test:${port}/mcp`,
        origin: `http://everything.gatehouse.test:${port}`,
        addresses: ['127.0.0.1'],
        allowInsecureLoopback: true,
        privateRanges: [],
        headers: {},
        principalHeader: null,
        headersHelper: null,
        startupTimeoutMs: 30_000,
      });
      expectEverythingDocument(supervisor, '2025-11-25');
      const echoed = await supervisor.callTool('echo', { message: 'over http' });
      if (!echoed.ok) throw new Error(`call failed: ${echoed.reason}`);
      expect(textOf(echoed.result)).toContain('over http');
    });
  });

  it('reports a refused description as the supervisor failure, classified, without retrying it', async () => {
    const supervisor = superviseAdmitted(
      {
        kind: 'stdio',
        command: '/bin/sh',
        args: ['-c', 'exit 0'],
        env: {},
        cwd: null,
        authority: {
          commands: [[EVERYTHING]],
          ceiling: [[EVERYTHING]],
          allowedRoots: [root],
          envKeys: [],
          runAs: null,
        },
        startupTimeoutMs: null,
      },
      { connect },
    );
    supervisors.push(supervisor);
    expect(await supervisor.start()).toBe('failed');
    expect(supervisor.state.failure).toMatchObject({
      failureClass: 'config',
      reason: 'command_not_allowed',
      attempts: 1,
    });
    expect(supervisor.catalog).toBeUndefined();
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** server-everything says so on stderr once it listens; the rest of its stderr is drained. */
async function listening(child: ChildProcess): Promise<void> {
  let seen = '';
  for await (const chunk of child.stderr as Readable) {
    seen += String(chunk);
    if (seen.includes('listening on port')) break;
  }
  child.stderr?.resume();
}
