import {
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
  testRedisUrl,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
import { RedisConnections } from '@gatehouse/coordination';
import { gatewaySessionsKey } from '@gatehouse/contracts';
import { createLogger } from '@gatehouse/platform';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import {
  connectSdkClient,
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from '../acceptance/gateway-stack.harness';
import { Redis } from 'ioredis';
import { GatewayActivityRecorder } from './gateway-activity-recorder.js';

// A real gateway serves an SDK client's calls and refuses some of the
// workspace's own callers (a rate limit, an unknown session, a passthrough server it does not serve) and some
// requests nobody vouches for (no token, another tenant's workspace); its recorder flushes; the API's
// `gateway.activity` answers the live session, the calls by outcome and the refusals by reason, only the
// vouched-for ones, to a member of the workspace's tenant, and 404 to another tenant's owner. A second replica's
// sessions are summed, a stale one's are not, and a session's end takes it out of the count.

jest.setTimeout(120_000);

let stack: GatewayStack;
let upstream: StreamableHttpUpstream;
let gateway: StartedGateway;
let client: Client;
const extraRecorders: GatewayActivityRecorder[] = [];
// Other replicas' recorders, with their connections from the factory the gateway uses.
const connections = new RedisConnections({ url: testRedisUrl(), app: 'gateway-test' });

function inprocServer(): Server {
  const server = new Server({ name: 'inproc', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'echo', description: 'Echoes text', inputSchema: { type: 'object' as const } },
      { name: 'fail', description: 'Always a tool error', inputSchema: { type: 'object' as const } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    switch (request.params.name) {
      case 'echo':
        return { content: [{ type: 'text', text: 'echo' }] };
      case 'fail':
        return { content: [{ type: 'text', text: 'it failed' }], isError: true };
      default:
        throw new McpError(ErrorCode.InvalidParams, 'unknown tool');
    }
  });
  return server;
}

interface ActivityBody {
  workspaceId: string;
  liveSessions: number;
  replicas: number;
  windowMinutes: number;
  calls: { total: number; byOutcome: { outcome: string; count: number }[] };
  refusals: { total: number; byReason: { reason: string; count: number }[] };
  minutes: { minute: string; calls: number; refusals: number }[];
}

async function activity(): Promise<ActivityBody> {
  const answer = await stack.expectStatus(
    'alice',
    'GET',
    `/v1/workspaces/${stack.workspaceId}/gateway-activity`,
    200,
  );
  return answer.body as unknown as ActivityBody;
}

const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

async function post(url: URL, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: PING,
  });
  await response.arrayBuffer();
  return response.status;
}

function replica(replicaId: string, count: number, at: () => number): GatewayActivityRecorder {
  const recorder = new GatewayActivityRecorder({
    connect: () => connections.open('command', 'activity-replica'),
    keyPrefix: stack.redisKeyPrefix,
    replicaId,
    logger: createLogger({ name: 'activity-replica', level: 'silent' }),
    sessionCounts: () => new Map([[stack.workspaceId, count]]),
    flushIntervalMs: 3_600_000,
    now: at,
  });
  recorder.start();
  extraRecorders.push(recorder);
  return recorder;
}

beforeAll(async () => {
  stack = await startGatewayStack({ name: 'gateway-activity', stdioCommands: [] });
  upstream = await startStreamableHttpUpstream(inprocServer);
  await stack.defineServers('admin', 'managed', { inproc: { type: 'http', url: upstream.url } });
  await stack.approve('inproc');
  await stack.discoverAndSubmit('inproc');
  // A small per-token limit, so one of alice's requests is refused for it.
  gateway = await stack.startGateway({ RATE_LIMIT_PER_TOKEN: '12' });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await client?.close();
  await Promise.all(extraRecorders.map((recorder) => recorder.close()));
  await connections.close();
  await stack?.close();
  await upstream?.close();
});

describe('gateway.activity after a real gateway served and refused calls', () => {
  it('reads nothing before the gateway served anything', async () => {
    const body = await activity();
    expect(body).toMatchObject({
      workspaceId: stack.workspaceId,
      liveSessions: 0,
      replicas: 0,
      windowMinutes: 60,
      calls: { total: 0, byOutcome: [] },
      refusals: { total: 0, byReason: [] },
    });
    expect(body.minutes).toHaveLength(60);
  });

  it('counts the open session, the calls by outcome and the vouched-for refusals by reason', async () => {
    client = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
    await client.callTool({ name: 'mcp__inproc__echo', arguments: {} });
    await client.callTool({ name: 'mcp__inproc__echo', arguments: {} });
    const failed = await client.callTool({ name: 'mcp__inproc__fail', arguments: {} });
    expect(failed.isError).toBe(true);
    await expect(client.callTool({ name: 'mcp__inproc__nope', arguments: {} })).rejects.toThrow();

    const agent = { authorization: `Bearer ${stack.tokens.agent}` };
    // The workspace's own callers, refused: an unknown session, a server it is not served, alice's rate limit.
    expect(await post(gateway.endpoint(), { ...agent, 'mcp-session-id': 'no-such-session' })).toBe(404);
    expect(await post(new URL(`${gateway.endpoint().pathname}/s/nothere`, gateway.url), agent)).toBe(404);
    const alice = { authorization: `Bearer ${stack.tokens.alice}` };
    let limited = 0;
    for (let i = 0; i < 14; i += 1) if ((await post(gateway.endpoint(), alice)) === 429) limited += 1;
    expect(limited).toBe(2);
    // Nobody the workspace vouches for: never the workspace's to see.
    expect(await post(gateway.endpoint(), {})).toBe(401);
    expect(await post(gateway.endpoint(), { authorization: 'Bearer ghu_notarealtokenatall00000' })).toBe(401);
    expect(await post(gateway.endpoint(stack.globexWorkspaceId), agent)).toBe(404);

    await gateway.activity?.flush();
    const body = await activity();
    expect(body.liveSessions).toBe(1);
    expect(body.replicas).toBe(1);
    expect(body.calls).toEqual({
      total: 4,
      byOutcome: [
        { outcome: 'ok', count: 2 },
        { outcome: 'tool_error', count: 1 },
        { outcome: 'unknown_tool', count: 1 },
      ],
    });
    expect(body.refusals).toEqual({
      total: 4,
      byReason: [
        { reason: 'rate_limited_token', count: 2 },
        { reason: 'session_not_found', count: 1 },
        { reason: 'server_not_found', count: 1 },
      ],
    });
    expect(body.minutes.reduce((sum, m) => sum + m.calls, 0)).toBe(4);
    expect(body.minutes.reduce((sum, m) => sum + m.refusals, 0)).toBe(4);
  });

  it("answers another tenant's owner 404, as for a workspace that is nobody's", async () => {
    const answer = await stack.rest(
      'globexOwner',
      'GET',
      `/v1/workspaces/${stack.workspaceId}/gateway-activity`,
    );
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'not_found' });
    expect(JSON.stringify(answer.body)).not.toContain('liveSessions');
  });

  it("sums another replica's sessions, ignores a stale replica's, and drops a session that ended", async () => {
    await replica('replica-two', 2, () => Date.now()).flush();
    // Last heard from a minute ago: it died or lost Redis.
    await replica('replica-stale', 5, () => Date.now() - 60_000).flush();
    expect(await activity()).toMatchObject({ liveSessions: 3, replicas: 2 });

    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await gateway.activity?.flush();
    expect(await activity()).toMatchObject({ liveSessions: 2, replicas: 1 });
  });

  it('forgets a replica dead for longer than the sessions key would live alone, on the next read', async () => {
    // Live replicas keep the hash's expiry fresh, so a crashed replica's field would stay for good: the read
    // drops fields older than the key's own lifetime (a minute-old one may be a replica that lost Redis).
    await replica('replica-crashed', 7, () => Date.now() - 10 * 60_000).flush();
    await replica('replica-away', 3, () => Date.now() - 60_000).flush();
    await replica('replica-live', 1, () => Date.now()).flush();
    const key = gatewaySessionsKey(stack.redisKeyPrefix, stack.workspaceId);
    const redis = new Redis(testRedisUrl());
    try {
      expect(Object.keys(await redis.hgetall(key))).toContain('replica-crashed');
      const before = await activity();
      expect(Object.keys(await redis.hgetall(key))).not.toContain('replica-crashed');
      // Never counted in the first place: dropping it changes no answer.
      expect(await activity()).toMatchObject({ liveSessions: before.liveSessions });
      expect(Object.keys(await redis.hgetall(key))).toEqual(
        expect.arrayContaining(['replica-away', 'replica-live']),
      );
    } finally {
      redis.disconnect();
    }
  });
});
