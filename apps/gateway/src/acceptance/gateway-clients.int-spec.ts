import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import {
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
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
// MCP Inspector's CLI (@modelcontextprotocol/inspector-cli, its own process) and the v2 SDK client
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

interface InspectorRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `mcp-inspector-cli --cli <endpoint> --transport http --header "Authorization: Bearer …" --method …`, in its own
 * process on this machine's Node. Its inner CLI reads its identity from `../package.json` of the working
 * directory, hence the cwd.
 */
async function inspector(endpoint: URL, token: string, method: readonly string[]): Promise<InspectorRun> {
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
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: dirname(INSPECTOR_CLI),
      env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: stack.root },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (exitCode) => done({ exitCode, stdout, stderr }));
  });
}

const toolNames = (run: InspectorRun): string[] =>
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

describe('a client that speaks both generations (@modelcontextprotocol/client 2.4, automatic negotiation)', () => {
  it('tries 2026-07-28 first, falls back to 2025-11-25 and lists and calls tools', async () => {
    const client = new V2Client(
      { name: 'gateway-acceptance-v2', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    /** What the client POSTed (its JSON-RPC method) and the status the gateway answered, in order. */
    const wire: { method: string; status: number }[] = [];
    const transport = new V2Transport(gateway.endpoint(), {
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
    try {
      // The 2026-07-28 probe first; the gateway's answer is a legacy signal, and the client initializes.
      expect(wire.slice(0, 2).map((posted) => posted.method)).toEqual(['server/discover', 'initialize']);
      expect(wire[0]?.status).toBeGreaterThanOrEqual(400);
      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['mcp__everything__echo', 'mcp__inproc__echo']),
      );
      const called = await client.callTool({ name: 'mcp__inproc__echo', arguments: { text: 'v2' } });
      expect(called.content).toEqual([{ type: 'text', text: 'inproc: v2' }]);
    } finally {
      await client.close();
    }
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
