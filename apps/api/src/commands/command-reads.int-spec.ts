import { Writable } from 'node:stream';
import {
  COMMANDS,
  defineCommand,
  uuid,
  type CommandInput,
  type CommandDefinition,
} from '@gatehouse/commands';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  collectRoutes,
  createTestDatabase,
  createTestRedisPrefix,
  runCrossTenantHarness,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type CollectedRoutes,
  type HarnessInject,
  type TestDatabase,
} from '@gatehouse/testing';
import { Inject, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';
import { seedCrossTenantWorld, victimMarkers, type CrossTenantWorld } from '../cross-tenant.fixtures';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import type { UseCaseArgs } from './command-handler';
import { awaitChange } from './long-poll/await-change';
import { CHANGE_NOTIFIER, type ChangeNotifier } from './long-poll/change-notifier.port';
import { RedisChangeNotifier } from './long-poll/redis-change-notifier';
import { HandlesCommand } from './registry/handles-command-decorator';
import { findVisibleWorkspace } from '../auth/workspace-visibility';

// Declared reads over a listening API and a real HTTP client (fetch): ETag and 304, long-poll answered early on
// change and cancelled when the client goes away (the use case's AbortSignal fires and its reads stop). The
// long-poll read is a throwaway command in a test module: REST, GraphQL and the cross-tenant harness pick it up
// from its declaration and its @HandlesCommand binding alone.

jest.setTimeout(120_000);

const watchWorkspace = defineCommand({
  name: 'test.workspaces.watch',
  summary: 'A throwaway long-poll read of one workspace.',
  scope: 'workspaces:read',
  kind: 'query',
  input: z.strictObject({ workspaceId: uuid }),
  output: z.object({ id: uuid, name: z.string() }),
  http: { method: 'GET', path: '/v1/test/workspaces/:workspaceId/watch' },
  graphql: { field: 'testWatchWorkspace' },
  read: { etag: true, longPoll: { maxWaitSeconds: 30 } },
  problems: ['not_found', 'forbidden'],
});

const topicOf = (workspaceId: string) => `workspace:${workspaceId}`;

/** What the test sees of the use case: its reads, and each call's signal and end. */
class WatchProbe {
  reads = 0;
  private readWaiters: { count: number; resolve: () => void }[] = [];
  readonly calls: { aborted: Promise<void>; finished: Promise<void> }[] = [];

  readDone(): void {
    this.reads += 1;
    for (const waiter of this.readWaiters.filter((w) => this.reads >= w.count)) waiter.resolve();
    this.readWaiters = this.readWaiters.filter((w) => this.reads < w.count);
  }

  /** Resolves once `count` reads in all have completed. */
  untilReads(count: number): Promise<void> {
    if (this.reads >= count) return Promise.resolve();
    return new Promise((resolve) => this.readWaiters.push({ count, resolve }));
  }
}

const PROBE = Symbol('WATCH_PROBE');

@HandlesCommand(watchWorkspace)
class WatchWorkspaceUseCase {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CHANGE_NOTIFIER) private readonly changes: ChangeNotifier,
    @Inject(PROBE) private readonly probe: WatchProbe,
  ) {}

  async execute({ principal, input, signal, wait }: UseCaseArgs<CommandInput<typeof watchWorkspace>>) {
    const requestSignal = signal ?? new AbortController().signal;
    let finish = () => {};
    this.probe.calls.push({
      aborted: new Promise((resolve) =>
        requestSignal.addEventListener('abort', () => resolve(), { once: true }),
      ),
      finished: new Promise((resolve) => (finish = resolve)),
    });
    try {
      return await awaitChange({
        wait,
        signal: requestSignal,
        changes: this.changes,
        topic: topicOf(input.workspaceId),
        read: async () => {
          const workspace = await this.db.withTenant(principal.tenantId, (tx) =>
            findVisibleWorkspace(tx, principal, input.workspaceId),
          );
          this.probe.readDone();
          return { id: workspace.id, name: workspace.name };
        },
      });
    } finally {
      finish();
    }
  }
}

let collected: CollectedRoutes | undefined;
let notifier: RedisChangeNotifier;
const probe = new WatchProbe();

@Module({
  providers: [
    WatchWorkspaceUseCase,
    { provide: CHANGE_NOTIFIER, useFactory: () => notifier },
    { provide: PROBE, useValue: probe },
    {
      provide: 'READS_ROUTE_COLLECTOR',
      inject: [HttpAdapterHost],
      useFactory: (host: HttpAdapterHost) => {
        collected = collectRoutes(host.httpAdapter.getInstance<FastifyInstance>());
        return collected;
      },
    },
  ],
})
class WatchTestModule {}

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let world: CrossTenantWorld;
let publisher: Redis;
let base: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  world = await seedCrossTenantWorld(db);
  publisher = createRedisConnection({ url: testRedisUrl(), name: 'reads-test', purpose: 'command' });
  notifier = new RedisChangeNotifier({
    publisher,
    subscriber: createRedisConnection({ url: testRedisUrl(), name: 'reads-test', purpose: 'subscriber' }),
    channelPrefix: createTestRedisPrefix(),
  });
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'reads-test', level: 'warn', destination: quiet }),
    imports: [WatchTestModule],
    commands: [...COMMANDS, watchWorkspace],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  base = `http://127.0.0.1:${address.port}`;
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await notifier?.close();
  if (publisher) await closeRedis(publisher);
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

const owner = () => ({ authorization: `Bearer ${world.a.token.secret}` });
const workspaceUrl = () => `${base}/v1/workspaces/${world.a.workspace.id}`;
const watchUrl = (query = '') => `${base}/v1/test/workspaces/${world.a.workspace.id}/watch${query}`;

async function rename(name: string): Promise<void> {
  const answer = await fetch(workspaceUrl(), {
    method: 'PATCH',
    headers: { ...owner(), 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(answer.status).toBe(200);
}

/** The ledger relay's part, until it feeds the notifier: publish after the change committed. */
const announce = () => notifier.publish(topicOf(world.a.workspace.id));

async function numsub(channel: string): Promise<number> {
  const reply = (await publisher.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
  return Number(reply[1]);
}

describe('ETag and If-None-Match on declared reads', () => {
  it('answers an ETag, 304 to a matching If-None-Match, and 200 with a new tag once the output changed', async () => {
    const first = await fetch(workspaceUrl(), { headers: owner() });
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    await first.json();

    const again = await fetch(workspaceUrl(), { headers: { ...owner(), 'if-none-match': tag as string } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(await again.text()).toBe('');

    const weakInList = await fetch(workspaceUrl(), {
      headers: { ...owner(), 'if-none-match': `"stale", W/${tag as string}` },
    });
    expect(weakInList.status).toBe(304);

    await rename(`renamed-${Date.now().toString(36)}`);
    const changed = await fetch(workspaceUrl(), { headers: { ...owner(), 'if-none-match': tag as string } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    await changed.json();
  });

  it('answers no ETag on a read that does not declare one', async () => {
    const answer = await fetch(`${base}/v1/me`, { headers: owner() });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('etag')).toBeNull();
    await answer.json();
  });
});

describe('long-poll on a declared read', () => {
  async function currentTag(): Promise<string> {
    const answer = await fetch(watchUrl(), { headers: owner() });
    expect(answer.status).toBe(200);
    await answer.json();
    return answer.headers.get('etag') as string;
  }

  it('holds the answer while unchanged and answers early, with the new output, on change', async () => {
    const tag = await currentTag();
    const readsBefore = probe.reads;
    const held = fetch(watchUrl('?wait=30'), { headers: { ...owner(), 'if-none-match': tag } });
    await probe.untilReads(readsBefore + 1);

    const name = `changed-${Date.now().toString(36)}`;
    await rename(name);
    await announce();
    const answer = await held;
    // Answered before its 30 seconds ran out: a timeout would be a 304.
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ id: world.a.workspace.id, name });
    expect(answer.headers.get('etag')).not.toBe(tag);
  });

  it('answers 304 when nothing changed within the wait', async () => {
    const tag = await currentTag();
    const answer = await fetch(watchUrl('?wait=1'), { headers: { ...owner(), 'if-none-match': tag } });
    expect(answer.status).toBe(304);
    expect(answer.headers.get('etag')).toBe(tag);
  });

  it('ignores a change that leaves the output as the client has it, and keeps waiting', async () => {
    const tag = await currentTag();
    const readsBefore = probe.reads;
    const held = fetch(watchUrl('?wait=30'), { headers: { ...owner(), 'if-none-match': tag } });
    await probe.untilReads(readsBefore + 1);
    await announce();
    await probe.untilReads(readsBefore + 2);
    const name = `again-${Date.now().toString(36)}`;
    await rename(name);
    await announce();
    const answer = await held;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ name });
  });

  it('aborts the use case when the client goes away: the signal fires, the watch closes, no read follows', async () => {
    const tag = await currentTag();
    const readsBefore = probe.reads;
    const callsBefore = probe.calls.length;
    const client = new AbortController();
    const held = fetch(watchUrl('?wait=30'), {
      headers: { ...owner(), 'if-none-match': tag },
      signal: client.signal,
    });
    await probe.untilReads(readsBefore + 1);
    const call = probe.calls[callsBefore];
    if (call === undefined) throw new Error('the use case was not called');
    const channel = notifier.channelOf(topicOf(world.a.workspace.id));
    expect(await numsub(channel)).toBe(1);

    client.abort();
    await expect(held).rejects.toThrow();
    await call.aborted;
    await call.finished;
    expect(await numsub(channel)).toBe(0);

    // A change now reaches nobody: the next read is the one this ordinary request makes.
    await announce();
    await currentTag();
    expect(probe.reads).toBe(readsBefore + 2);
  });

  it('takes ?wait= only as whole seconds within the declared bound', async () => {
    for (const wait of ['31', '-1', '1.5', 'soon', '']) {
      const answer = await fetch(watchUrl(`?wait=${wait}`), { headers: owner() });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'wait', message: 'Wait whole seconds, from 0 to 30.' }],
      });
    }
    // A read without long-poll has no `wait`: it is an unknown field like any other.
    const plain = await fetch(`${workspaceUrl()}?wait=5`, { headers: owner() });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('answers at once without If-None-Match (nothing to compare with)', async () => {
    const answer = await fetch(watchUrl('?wait=30'), { headers: owner() });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id: world.a.workspace.id });
  });
});

describe('a throwaway command is picked up from its declaration', () => {
  const routeCase = () => ({
    route: 'GET /v1/test/workspaces/:workspaceId/watch',
    url: `/v1/test/workspaces/${world.a.workspace.id}/watch`,
    expect: 'not_found' as const,
  });
  const fieldCase = () => ({
    field: 'Query.testWatchWorkspace',
    query: `query { testWatchWorkspace(input: { workspaceId: "${world.a.workspace.id}" }) { __typename } }`,
    expect: 'not_found' as const,
  });

  it('over GraphQL', async () => {
    const answer = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { ...owner(), 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `query { testWatchWorkspace(input: { workspaceId: "${world.a.workspace.id}" }) { id name } }`,
      }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ data: { testWatchWorkspace: { id: world.a.workspace.id } } });
  });

  it('by the cross-tenant harness: uncovered without a case, and passing (404 for tenant B) with one', async () => {
    if (!collected) throw new Error('the route collector was not instantiated');
    const inject: HarnessInject = async (request) => {
      const response = await app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: request.headers,
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      });
      return { statusCode: response.statusCode, body: response.body, headers: response.headers };
    };
    const run = (withCases: boolean) =>
      runCrossTenantHarness({
        app: inject,
        routes: collected as CollectedRoutes,
        attackerHeaders: { authorization: `Bearer ${world.b.token.secret}` },
        victimMarkers: victimMarkers(world.a),
        cases: withCases ? [routeCase()] : [],
        graphql: { path: '/graphql', cases: withCases ? [fieldCase()] : [] },
        log: () => {},
      });

    const without = await run(false);
    expect(without.uncoveredRoutes).toContain(routeCase().route);
    expect(without.uncoveredFields).toContain(fieldCase().field);

    const covered = await run(true);
    expect(covered.uncoveredRoutes).not.toContain(routeCase().route);
    expect(covered.uncoveredFields).not.toContain(fieldCase().field);
    expect(covered.failures).toEqual([]);
    expect(covered.routes.passed).toBe(1);
    expect(covered.fields.passed).toBe(1);
  });
});

describe('the declarations of the real reads', () => {
  it('declare ETag where a client polls', () => {
    const byName = (name: string) => COMMANDS.find((c) => c.name === name) as CommandDefinition;
    expect(byName('workspaces.get').read).toEqual({ etag: true });
    expect(byName('workspaces.list').read).toEqual({ etag: true });
  });
});
