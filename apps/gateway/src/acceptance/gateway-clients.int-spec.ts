import { dirname, join } from 'node:path';
import {
  inspectorLauncher,
  node22,
  runInspectorCli,
  runProgram,
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
  type InspectorCliRun,
  type ProgramRun,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  connectSdkClient,
  EVERYTHING,
  ROOT_DIR,
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from './gateway-stack.harness';

// The gateway's acceptance (docs/architecture/gateway.md), end to end, with clients nobody here wrote: the
// MCP Inspector's CLI (@modelcontextprotocol/inspector-cli 1.0.3, its own process), the Inspector 2.12's CLI
// (@modelcontextprotocol/inspector, on Node 22, with --protocol-era modern and legacy, on the workspace endpoint
// and one server's passthrough) and the v2 SDK client
// (@modelcontextprotocol/client 2.4, in automatic version negotiation) against a workspace gateway fronting
// @modelcontextprotocol/server- everything over stdio and an in-process SDK server over Streamable HTTP
// (allowTools admits four of its five tools). The Inspector lists the namespaced tools, calls one on each
// upstream, and is refused a tool outside allowTools, another workspace (404) and a revoked server.
// list_changed after an upstream change is received with the SDK client (the Inspector CLI runs one request
// and exits: it cannot wait for a notification).

jest.setTimeout(180_000);

const INSPECTOR_CLI = join(ROOT_DIR, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');

let stack: GatewayStack;
let upstream: StreamableHttpUpstream;
let gateway: StartedGateway;
let inprocApproval: string;
/** Set by the in-process server's `grow` tool: it lists one more tool from then on. */
let grown = false;

function inprocServer(): Server {
  const server = new Server(
    { name: 'inproc', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const text = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'echo', description: 'Echoes text', inputSchema: text },
      { name: 'fail', description: 'Always a tool error', inputSchema: { type: 'object' as const } },
      { name: 'secret_op', description: 'Outside allowTools', inputSchema: { type: 'object' as const } },
      { name: 'grow', description: 'Adds a tool and says so', inputSchema: { type: 'object' as const } },
      ...(grown
        ? [{ name: 'grown', description: 'Listed after grow', inputSchema: { type: 'object' as const } }]
        : []),
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    switch (request.params.name) {
      case 'echo':
        return { content: [{ type: 'text', text: `inproc: ${String(request.params.arguments?.text)}` }] };
      case 'fail':
        return { content: [{ type: 'text', text: 'it failed' }], isError: true };
      case 'secret_op':
        return { content: [{ type: 'text', text: 'secret ran' }] };
      case 'grow':
        grown = true;
        await server.sendToolListChanged();
        return { content: [{ type: 'text', text: 'grown' }] };
      default:
        throw new McpError(ErrorCode.InvalidParams, 'unknown tool');
    }
  });
  return server;
}

/**
 * `mcp-inspector-cli --cli <endpoint> --transport http --header "Authorization: Bearer …" --method …`, in its own
 * process on this machine's Node. Its inner CLI reads its identity from `../package.json` of the working
 * directory, hence the cwd.
 */
async function inspector(endpoint: URL, token: string, method: readonly string[]): Promise<ProgramRun> {
  const args = [
    INSPECTOR_CLI,
    '--cli',
    endpoint.href,
    '--transport',
    'http',
    '--header',
    `Authorization: Bearer ${token}`,
    '--method',
    ...method,
  ];
  return runProgram(process.execPath, args, {
    cwd: dirname(INSPECTOR_CLI),
    env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: stack.root },
  });
}

const toolNames = (run: ProgramRun): string[] =>
  (JSON.parse(run.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name);

beforeAll(async () => {
  stack = await startGatewayStack({ name: 'gateway-clients', stdioCommands: [[EVERYTHING, 'stdio']] });
  upstream = await startStreamableHttpUpstream(inprocServer);
  await stack.defineServers('admin', 'managed', {
    everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] },
    inproc: { type: 'http', url: upstream.url, allowTools: ['echo', 'fail', 'grow'] },
  });
  await stack.approve('everything');
  inprocApproval = await stack.approve('inproc');
  await stack.discoverAndSubmit('everything');
  await stack.discoverAndSubmit('inproc');
  gateway = await stack.startGateway();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await upstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

describe('the MCP Inspector CLI against the workspace gateway', () => {
  it('lists the namespaced tools of both upstreams, nothing outside allowTools', async () => {
    const listed = await inspector(gateway.endpoint(), stack.tokens.agent, ['tools/list']);
    expect(listed).toMatchObject({ exitCode: 0 });
    const names = toolNames(listed);
    expect(names).toEqual(
      expect.arrayContaining([
        'mcp__everything__echo',
        'mcp__inproc__echo',
        'mcp__inproc__fail',
        'mcp__inproc__grow',
      ]),
    );
    expect(names).not.toContain('mcp__inproc__secret_op');
    expect(names.every((name) => /^mcp__(everything|inproc)__/.test(name))).toBe(true);
  });

  it('calls a stdio tool and an HTTP tool; a tool error comes back as a result with isError', async () => {
    const stdio = await inspector(gateway.endpoint(), stack.tokens.alice, [
      'tools/call',
      '--tool-name',
      'mcp__everything__echo',
      '--tool-arg',
      'message=through the inspector',
    ]);
    expect(stdio.exitCode).toBe(0);
    expect(JSON.stringify(JSON.parse(stdio.stdout))).toContain('through the inspector');
    const http = await inspector(gateway.endpoint(), stack.tokens.agent, [
      'tools/call',
      '--tool-name',
      'mcp__inproc__echo',
      '--tool-arg',
      'text=there',
    ]);
    expect(http.exitCode).toBe(0);
    expect(JSON.parse(http.stdout)).toMatchObject({ content: [{ type: 'text', text: 'inproc: there' }] });
    const failed = await inspector(gateway.endpoint(), stack.tokens.agent, [
      'tools/call',
      '--tool-name',
      'mcp__inproc__fail',
    ]);
    expect(failed.exitCode).toBe(0);
    expect(JSON.parse(failed.stdout)).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'it failed' }],
    });
  });

  it('is refused a tool outside allowTools, though the upstream has it', async () => {
    const refused = await inspector(gateway.endpoint(), stack.tokens.agent, [
      'tools/call',
      '--tool-name',
      'mcp__inproc__secret_op',
    ]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`MCP error ${ErrorCode.InvalidParams}`);
    expect(refused.stdout).not.toContain('secret ran');
  });

  it('is refused another workspace of its tenant and another tenant’s workspace with 404', async () => {
    for (const [token, workspace] of [
      [stack.tokens.agent, stack.otherWorkspaceId],
      [stack.tokens.alice, stack.globexWorkspaceId],
      [stack.tokens.globexOwner, stack.workspaceId],
    ] as const) {
      const refused = await inspector(gateway.endpoint(workspace), token, ['tools/list']);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain('404');
      expect(refused.stdout).toBe('');
    }
  });
});

describe('list_changed, with the SDK client (the Inspector CLI cannot wait for a notification)', () => {
  it('is relayed to the session that is connected when an upstream’s tools change', async () => {
    const client = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
    try {
      const changed = new Promise<void>((done) => {
        client.setNotificationHandler(ToolListChangedNotificationSchema, async () => done());
      });
      await client.callTool({ name: 'mcp__inproc__grow', arguments: {} });
      await changed;
      expect(grown).toBe(true);
    } finally {
      await client.close();
    }
  });
});

/** A v2 SDK client (@modelcontextprotocol/client 2.4) with its negotiation mode, and what it POSTed, in order. */
async function connectV2(
  endpoint: URL,
  mode: 'legacy' | 'auto' | { pin: string },
): Promise<{ client: V2Client; wire: { method: string; status: number }[] }> {
  const client = new V2Client(
    { name: 'gateway-acceptance-v2', version: '0.0.0' },
    { versionNegotiation: { mode } },
  );
  const wire: { method: string; status: number }[] = [];
  const transport = new V2Transport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${stack.tokens.agent}` } },
    fetch: async (url, init) => {
      const answer = await fetch(url, init);
      if (init?.method === 'POST' && typeof init.body === 'string')
        wire.push({
          method: (JSON.parse(init.body) as { method?: string }).method ?? '(response)',
          status: answer.status,
        });
      return answer;
    },
  });
  await client.connect(transport);
  return { client, wire };
}

describe('clients of both protocol eras (@modelcontextprotocol/client 2.4) on both endpoints', () => {
  const passthrough = () => new URL(`${gateway.endpoint().href}/s/inproc`);

  it.each([
    ['auto', 'auto' as const],
    ['pinned to 2026-07-28', { pin: '2026-07-28' }],
  ])('%s: discovers 2026-07-28 and lists and calls without a session', async (_label, mode) => {
    const { client, wire } = await connectV2(gateway.endpoint(), mode);
    try {
      expect(wire[0]).toEqual({ method: 'server/discover', status: 200 });
      expect(wire.map((posted) => posted.method)).not.toContain('initialize');
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true } });
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['mcp__everything__echo', 'mcp__inproc__echo']),
      );
      expect(listed.tools.map((tool) => tool.name)).not.toContain('mcp__inproc__secret_op');
      const called = await client.callTool({ name: 'mcp__inproc__echo', arguments: { text: 'modern' } });
      expect(called.content).toEqual([{ type: 'text', text: 'inproc: modern' }]);
      const stdio = await client.callTool({ name: 'mcp__everything__echo', arguments: { message: 'm2' } });
      expect(JSON.stringify(stdio.content)).toContain('m2');
    } finally {
      await client.close();
    }
  });

  it('pinned to 2026-07-28 on the passthrough: the server’s own names, one exchange per request', async () => {
    const { client } = await connectV2(passthrough(), { pin: '2026-07-28' });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['echo', 'fail', 'grow']);
      const called = await client.callTool({ name: 'echo', arguments: { text: 'pass' } });
      expect(called.content).toEqual([{ type: 'text', text: 'inproc: pass' }]);
      const failed = await client.callTool({ name: 'fail', arguments: {} });
      expect(failed).toMatchObject({ isError: true });
    } finally {
      await client.close();
    }
  });

  it('a 2026 tools/call of a tool outside allowTools is the same -32602 a 2025 session gets', async () => {
    const { client } = await connectV2(gateway.endpoint(), { pin: '2026-07-28' });
    try {
      await expect(client.callTool({ name: 'mcp__inproc__secret_op', arguments: {} })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
    } finally {
      await client.close();
    }
  });

  it('the default (2025-11-25) v2 client still opens a session and is served as before', async () => {
    const { client, wire } = await connectV2(passthrough(), 'legacy');
    try {
      expect(wire[0]?.method).toBe('initialize');
      expect(client.getProtocolEra()).toBe('legacy');
      const called = await client.callTool({ name: 'echo', arguments: { text: 'legacy' } });
      expect(called.content).toEqual([{ type: 'text', text: 'inproc: legacy' }]);
    } finally {
      await client.close();
    }
  });
});

// The Inspector 2.12 CLI (@gatehouse/testing's runInspectorCli): fetched into npm's cache, not node_modules, and
// run on Node 22. Each era lists and calls through both endpoints; `--method initialize` prints the version it
// negotiated (2026-07-28 by server/discover without a session, 2025-11-25 by the initialize handshake).
describe.each([
  ['modern', '2026-07-28'],
  ['legacy', '2025-11-25'],
] as const)('the Inspector 2.12 CLI with --protocol-era %s on both endpoints', (era, protocolVersion) => {
  const passthrough = () => new URL(`${gateway.endpoint().href}/s/inproc`);
  const run = (endpoint: URL, method: readonly string[]): Promise<InspectorCliRun> =>
    runInspectorCli({
      endpoint,
      token: stack.tokens.agent,
      era,
      method,
      home: stack.root,
    });
  /**
   * `--format json` prints `{ "result": … }`; the exit code is 0, or 5 (its TOOL_ERROR) for a tools/call whose
   * result has isError: the result is printed all the same.
   */
  const json = (ran: InspectorCliRun, exitCode: 0 | 5 = 0): unknown => {
    expect(ran).toMatchObject({ exitCode });
    const printed = JSON.parse(ran.stdout) as unknown;
    expect(printed).toEqual({ result: expect.any(Object) });
    return (printed as { result: unknown }).result;
  };

  beforeAll(async () => {
    // The first fetch of Node 22 and of the Inspector into npm's cache takes tens of seconds: not a test's time.
    await Promise.all([node22(), inspectorLauncher()]);
  }, 360_000);

  it(`negotiates ${protocolVersion} with the gateway on both endpoints`, async () => {
    for (const endpoint of [gateway.endpoint(), passthrough()]) {
      expect(json(await run(endpoint, ['initialize']))).toMatchObject({ protocolVersion });
    }
  });

  it('lists the namespaced tools and calls a stdio and an HTTP tool on the workspace endpoint', async () => {
    const listed = json(await run(gateway.endpoint(), ['tools/list'])) as { tools: { name: string }[] };
    const names = listed.tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['mcp__everything__echo', 'mcp__inproc__echo', 'mcp__inproc__fail']),
    );
    expect(names).not.toContain('mcp__inproc__secret_op');
    const http = await run(gateway.endpoint(), [
      'tools/call',
      '--tool-name',
      'mcp__inproc__echo',
      '--tool-arg',
      `text=${era}`,
    ]);
    expect(json(http)).toMatchObject({ content: [{ type: 'text', text: `inproc: ${era}` }] });
    const stdio = await run(gateway.endpoint(), [
      'tools/call',
      '--tool-name',
      'mcp__everything__echo',
      '--tool-arg',
      `message=${era} through the inspector 2`,
    ]);
    expect(JSON.stringify(json(stdio))).toContain(`${era} through the inspector 2`);
  });

  it('lists the server’s own tool names and calls one on the passthrough', async () => {
    const listed = json(await run(passthrough(), ['tools/list'])) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['echo', 'fail', 'grow']);
    const called = await run(passthrough(), [
      'tools/call',
      '--tool-name',
      'echo',
      '--tool-arg',
      `text=${era} pass`,
    ]);
    expect(json(called)).toMatchObject({ content: [{ type: 'text', text: `inproc: ${era} pass` }] });
    const failed = await run(passthrough(), ['tools/call', '--tool-name', 'fail']);
    expect(json(failed, 5)).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it failed' }] });
  });
});

describe('revocation, seen by the Inspector CLI', () => {
  it('is refused a revoked server on the next call, and no longer lists it', async () => {
    const before = await inspector(gateway.endpoint(), stack.tokens.agent, [
      'tools/call',
      '--tool-name',
      'mcp__inproc__echo',
      '--tool-arg',
      'text=before',
    ]);
    expect(before.exitCode).toBe(0);
    await stack.expectStatus('admin', 'POST', `/v1/approvals/${inprocApproval}/revoke`, 200, {
      reason: 'acceptance test',
    });
    // The ledger has the event once the revoke answered: read it now rather than wait for the relay.
    await gateway.revocations?.catchUp();
    const refused = await inspector(gateway.endpoint(), stack.tokens.agent, [
      'tools/call',
      '--tool-name',
      'mcp__inproc__echo',
      '--tool-arg',
      'text=after',
    ]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(`MCP error ${ErrorCode.InvalidParams}`);
    expect(refused.stdout).not.toContain('inproc: after');
    const listed = await inspector(gateway.endpoint(), stack.tokens.agent, ['tools/list']);
    expect(listed.exitCode).toBe(0);
    expect(toolNames(listed)).not.toContain('mcp__inproc__echo');
    expect(toolNames(listed)).toContain('mcp__everything__echo');
  });
});
