import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdmittedHttpTransport, AdmittedStdioTransport } from '@gatehouse/contracts';
import { serveFetchHandler } from '@gatehouse/platform';
import {
  acceptedContent,
  createMcpHandler,
  InMemoryServerEventBus,
  inputRequired,
  McpServer,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { createEdgeServer, makeTools } from '../discovery/test-support/edge-servers';
import { serveOverHttp } from '../discovery/test-support/loopback-http';
import {
  catalogDocumentOf,
  connectAdmitted,
  superviseAdmitted,
  type ConnectionSupervisor,
  type SupervisorEvent,
} from '../index';

// Version negotiation per upstream over Streamable HTTP through the admitted transport (the pinned fetch): a
// 2026-07-28-only server (the v2 SDK's createMcpHandler with `legacy: 'reject'`), a dual-era one (its default) and
// a 2025-only one (the v1 SDK's server) are each discovered and called, and the era the handshake settled on is
// in the catalog's identity. On the 2026 era the server asks for elicitation inside the call's result
// (input_required): the relay a call brings answers it, and a call without one gets a typed failure. Over stdio
// the handshake starts with `initialize`; only a child that refuses it naming 2026-era versions is spawned again,
// probing.

const NODE_DIR = process.execPath.replace(/\/[^/]+$/, '');

function described(port: number, overrides: Partial<AdmittedHttpTransport> = {}): AdmittedHttpTransport {
  return {
    kind: 'http',
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    addresses: ['127.0.0.1'],
    allowInsecureLoopback: true,
    privateRanges: [],
    headers: {},
    principalHeader: null,
    headersHelper: null,
    startupTimeoutMs: null,
    ...overrides,
  };
}

/** Tools the modern server lists beside its own (a spec adds one, then says the list changed). */
const addedTools: string[] = [];

/** A v2 SDK server: `echo`, and `confirm`, which asks the client to confirm through an elicitation first. */
function modernServer(): McpServer {
  const server = new McpServer({ name: 'modern-peer', version: '2.0.0' });
  for (const name of addedTools)
    server.registerTool(name, { inputSchema: z.object({}) }, () => ({
      content: [{ type: 'text', text: name }],
    }));
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('confirm', { inputSchema: z.object({}) }, (_args, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
    if (answer === undefined) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: 'Go ahead?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          }),
        },
      });
    }
    return { content: [{ type: 'text', text: `confirmed: ${String(answer['ok'])}` }] };
  });
  return server;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

async function supervised(
  description: AdmittedHttpTransport | AdmittedStdioTransport,
  onEvent?: (event: SupervisorEvent) => void,
): Promise<ConnectionSupervisor> {
  const supervisor = superviseAdmitted(description, {
    ...(onEvent === undefined ? {} : { onEvent }),
    connect: {
      serverName: 'peer',
      clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
      defaultStartupTimeoutMs: 20_000,
      searchPath: `${NODE_DIR}:/usr/bin:/bin`,
      canSwitchUser: false,
    },
  });
  closers.push(() => supervisor.close());
  expect(await supervisor.start()).toBe('ready');
  return supervisor;
}

async function servedModern(
  legacy: 'reject' | 'stateless',
  bus?: ServerEventBus,
): Promise<{ port: number; handler: ReturnType<typeof createMcpHandler> }> {
  const handler = createMcpHandler(() => modernServer(), { legacy, ...(bus === undefined ? {} : { bus }) });
  const served = await serveFetchHandler((request, options) => handler.fetch(request, options));
  closers.push(served.close, handler.close);
  return { port: served.port, handler };
}

function textOf(result: { content?: unknown }): string {
  return (result.content as { text?: string }[]).map((part) => part.text ?? '').join('');
}

describe('protocol era per upstream (Streamable HTTP)', () => {
  it('discovers and calls a 2026-07-28-only server, and records the modern era', async () => {
    const supervisor = await supervised(described((await servedModern('reject')).port));
    const identity = supervisor.catalog?.identity;
    expect(identity).toMatchObject({ protocolEra: 'modern', protocolVersion: '2026-07-28' });
    expect(supervisor.catalog?.discovery.tools.map((tool) => tool.name).sort()).toEqual(['confirm', 'echo']);
    const call = await supervisor.callTool('echo', { text: 'hello' });
    expect(call.ok && textOf(call.result)).toBe('hello');
    const document = catalogDocumentOf(supervisor.catalog!, { source: { tier: 'managed', origin: 'test' } });
    expect(document.servers[0]?.identity).toMatchObject({
      protocolEra: 'modern',
      protocolVersion: '2026-07-28',
    });
  });

  it('reaches a dual-era server on its modern leg', async () => {
    const supervisor = await supervised(described((await servedModern('stateless')).port));
    expect(supervisor.catalog?.identity.protocolEra).toBe('modern');
    const call = await supervisor.callTool('echo', { text: 'both' });
    expect(call.ok && textOf(call.result)).toBe('both');
  });

  it('still reaches a 2025-only server (the v1 SDK) on the legacy era', async () => {
    const served = await serveOverHttp(
      createEdgeServer({ tools: makeTools(2), callText: () => 'legacy ok' }),
    );
    closers.push(served.close);
    const supervisor = await supervised(described(Number(served.url.port)));
    expect(supervisor.catalog?.identity).toMatchObject({
      protocolEra: 'legacy',
      protocolVersion: '2025-11-25',
    });
    const call = await supervisor.callTool('tool_0', { q: 'x' });
    expect(call.ok && textOf(call.result)).toBe('legacy ok');
  });

  it("re-lists a 2026 server's catalog when its listen stream says the tools changed", async () => {
    // The handler's bus, told when a listen stream subscribes to it (the stream is open from then on).
    const inner = new InMemoryServerEventBus();
    let subscribed: () => void = () => undefined;
    const listening = new Promise<void>((resolve) => (subscribed = resolve));
    const bus: ServerEventBus = {
      publish: (event) => inner.publish(event),
      subscribe: (listener) => {
        const off = inner.subscribe(listener);
        subscribed();
        return off;
      },
    };
    const { port, handler } = await servedModern('reject', bus);
    let refreshed: () => void = () => undefined;
    const relisted = new Promise<void>((resolve) => (refreshed = resolve));
    const supervisor = await supervised(described(port), (event) => {
      if (event.type === 'catalog' && event.change === 'refreshed') refreshed();
    });
    await listening;
    addedTools.push('added_later');
    try {
      handler.notify.toolsChanged();
      await relisted;
      expect(supervisor.catalog?.discovery.tools.map((tool) => tool.name)).toContain('added_later');
    } finally {
      addedTools.length = 0;
    }
  });

  it("answers a 2026 server's input_required through the call's elicitation relay", async () => {
    const supervisor = await supervised(
      described((await servedModern('reject')).port, { elicitation: true }),
    );
    const asked: unknown[] = [];
    const call = await supervisor.callTool(
      'confirm',
      {},
      {
        elicitation: {
          scope: 'session-a',
          relay: async (params) => {
            asked.push(params['message']);
            return { action: 'accept', content: { ok: true } };
          },
        },
      },
    );
    expect(asked).toEqual(['Go ahead?']);
    expect(call.ok && textOf(call.result)).toBe('confirmed: true');
  });

  it("fails the call, typed and without the server's words, when its caller cannot answer an elicitation", async () => {
    const supervisor = await supervised(
      described((await servedModern('reject')).port, { elicitation: true }),
    );
    const call = await supervisor.callTool(
      'confirm',
      {},
      { elicitation: { scope: 'session-b', relay: null } },
    );
    expect(call).toEqual({
      ok: false,
      reason: 'call_failed',
      failure: { failureClass: 'protocol', reason: 'elicitation_unsupported' },
    });
    expect(JSON.stringify(call)).not.toContain('Go ahead');
  });
});

describe('protocol era per upstream (stdio)', () => {
  const FIXTURE = join(__dirname, 'test-support/modern-stdio-server.fixture.cjs');
  let root: string;
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'gh-era-root-')));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const child = (mode: 'reject' | 'serve'): AdmittedStdioTransport => ({
    kind: 'stdio',
    command: process.execPath,
    args: [FIXTURE, mode],
    env: {},
    cwd: null,
    authority: {
      commands: [[process.execPath]],
      ceiling: [[process.execPath]],
      allowedRoots: [root],
      envKeys: [],
      runAs: null,
    },
    startupTimeoutMs: null,
  });

  it('spawns a 2026-07-28-only child again, probing, after it refused initialize', async () => {
    const supervisor = await supervised(child('reject'));
    expect(supervisor.catalog?.identity).toMatchObject({
      protocolEra: 'modern',
      protocolVersion: '2026-07-28',
    });
    const call = await supervisor.callTool('echo', { text: 'piped' });
    expect(call.ok && textOf(call.result)).toBe('piped');
  });

  it('keeps a dual-era child on the 2025 era (initialize first, no probe)', async () => {
    const result = await connectAdmitted(child('serve'), {
      serverName: 'dual',
      clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
      defaultStartupTimeoutMs: 20_000,
      searchPath: `${NODE_DIR}:/usr/bin:/bin`,
      canSwitchUser: false,
    });
    if (!result.ok) throw new Error(`connect failed: ${result.reason}`);
    closers.push(() => result.session.close());
    expect(result.session.identity).toMatchObject({
      protocolEra: 'legacy',
      serverInfo: { name: 'modern-stdio' },
    });
  });
});
