import { Writable } from 'node:stream';
import { ROLE_SCOPES } from '@gatehouse/commands';
import { createDatabase } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import { createTestTenant, createTestUser, createTestWorkspace } from '@gatehouse/testing';
import { mintApiToken } from '../apps/api/src/auth/mint-api-token';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { measuredLoad, startFullApi, type MeasuredLoad } from './auth-throughput.bench';
import { fixed, type BenchContext, type BenchSection } from './bench-context';

// What admin over MCP costs per call against REST for the same command on the same API (decision 0112): a
// tools/call of command_workspaces_list (stateless: a Server and a transport per request, JSON-RPC in and out,
// the output as structuredContent and as text) against GET /v1/workspaces with the same token and rows.

const WORKSPACES = 20;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = 2;
const WARMUP_SECONDS = Math.max(5, Number(process.env.BENCH_WARMUP_S ?? 10));
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'command_workspaces_list', arguments: {} },
});

export async function benchAdminMcpCall(ctx: BenchContext): Promise<BenchSection> {
  const db = createDatabase({ url: ctx.testDb.appUrl, poolMax: 2 });
  const tenant = await createTestTenant(db);
  const owner = await createTestUser(db, tenant.id, { role: 'owner' });
  for (let i = 0; i < WORKSPACES; i += 1)
    await createTestWorkspace(db, tenant.id, { name: `bench-${String(i).padStart(2, '0')}` });
  const { secret } = await db.withTenant(tenant.id, (tx) =>
    mintApiToken(tx, {
      tenantId: tenant.id,
      createdById: owner.id,
      name: 'bench',
      grant: { kind: 'user', userId: owner.id, scopes: ROLE_SCOPES.owner, workspaceIds: [], pool: null },
      expiresAt: null,
    }),
  );
  await db.close();
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: ctx.testDb.appUrl,
    REDIS_URL: ctx.redisUrl,
  });
  if (!parsed.ok) throw new Error(`admin-mcp-call: bad API config: ${parsed.message}`);
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const api = await startFullApi(
    parsed.config,
    createLogger({ name: 'api', level: 'info', destination: sink }),
  );
  const restUrl = `${api.origin}/v1/workspaces`;
  const mcpUrl = `${api.origin}/mcp/admin`;
  const auth = { authorization: `Bearer ${secret}` };
  const mcpHeaders = {
    ...auth,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };

  try {
    // Both answer the same rows.
    const rest = (await (await fetch(restUrl, { headers: auth })).json()) as { items?: { id: string }[] };
    const mcp = (await (await fetch(mcpUrl, { method: 'POST', headers: mcpHeaders, body: CALL })).json()) as {
      result?: { structuredContent?: { items?: { id: string }[] } };
    };
    const ids = (items: { id: string }[] | undefined) => (items ?? []).map((i) => i.id).join(',');
    if (
      (rest.items ?? []).length !== WORKSPACES ||
      ids(rest.items) !== ids(mcp.result?.structuredContent?.items)
    )
      throw new Error('admin-mcp-call: REST and the MCP tool returned different rows');

    const runRest = (seconds: number) =>
      measuredLoad({ url: restUrl, headers: auth, connections: CONNECTIONS, durationSeconds: seconds });
    const runMcp = (seconds: number) =>
      measuredLoad({
        url: mcpUrl,
        headers: mcpHeaders,
        method: 'POST',
        body: CALL,
        connections: CONNECTIONS,
        durationSeconds: seconds,
      });
    ctx.log(`admin-mcp-call: warming each target up for ${WARMUP_SECONDS} s`);
    await runRest(WARMUP_SECONDS);
    await runMcp(WARMUP_SECONDS);
    const viaRest: MeasuredLoad[] = [];
    const viaMcp: MeasuredLoad[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      ctx.log(`admin-mcp-call: round ${round + 1}/${ROUNDS}`);
      viaRest.push(await runRest(ctx.durationSeconds));
      viaMcp.push(await runMcp(ctx.durationSeconds));
    }
    for (const s of [...viaRest, ...viaMcp])
      if (s.non2xx > 0 || s.errors > 0)
        throw new Error(`admin-mcp-call: ${s.non2xx} non-2xx answers, ${s.errors} errors under load`);
    const mean = (xs: MeasuredLoad[], f: (s: MeasuredLoad) => number) =>
      xs.reduce((sum, s) => sum + f(s), 0) / xs.length;
    const cpu = (xs: MeasuredLoad[]) => mean(xs, (s) => s.cpuMsPerRequest);
    const latency = (xs: MeasuredLoad[]) =>
      `${fixed(mean(xs, (s) => s.latencyP50Ms))} / ${fixed(mean(xs, (s) => s.latencyP99Ms))}`;
    return {
      title: 'Admin over MCP: a tool call against the same REST read',
      method:
        `tools/call command_workspaces_list (${WORKSPACES} rows) on /mcp/admin, stateless (a Server and a transport ` +
        'per request, JSON answers), against GET /v1/workspaces with the same user token on the same full API ' +
        '(createApiApp, request logging at info to a null sink). autocannon in a separate process, ' +
        `${CONNECTIONS} connections, each target warmed up for ${WARMUP_SECONDS} s, then ${ctx.durationSeconds} s ` +
        `per run, ${ROUNDS} alternating rounds (mean), over loopback. Server CPU per request is the API process's ` +
        "CPU time during each run divided by the requests answered (PostgreSQL's own CPU not included).",
      rows: [
        {
          label: 'REST GET /v1/workspaces: requests/s',
          value: fixed(mean(viaRest, (s) => s.requestsPerSecond)),
        },
        { label: 'REST: latency p50 / p99 (ms)', value: latency(viaRest) },
        { label: 'REST: server CPU per request (ms)', value: fixed(cpu(viaRest), 2) },
        { label: 'MCP tools/call: requests/s', value: fixed(mean(viaMcp, (s) => s.requestsPerSecond)) },
        { label: 'MCP: latency p50 / p99 (ms)', value: latency(viaMcp) },
        { label: 'MCP: server CPU per request (ms)', value: fixed(cpu(viaMcp), 2) },
      ],
      ratio: {
        label: 'MCP tool call / REST read (server CPU per request)',
        value: cpu(viaMcp) / cpu(viaRest),
      },
    };
  } finally {
    await api.close();
  }
}
