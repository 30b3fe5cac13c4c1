import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Scope } from '@gatehouse/commands';
import type { RevocationEvent, RevocationsPage } from '@gatehouse/contracts';
import {
  closeRedis,
  createRedisConnection,
  RedisChannelMultiplexer,
  RevocationSubscriber,
  type RevalidateReason,
} from '@gatehouse/coordination';
import { insertGatewayToken } from '@gatehouse/db';
import { createHttpRevocationsReader, RevocationsReadError } from '@gatehouse/lease-holder';
import { testRedisUrl, TEST_DATABASE_TIMEOUT_MS, type TestTenant, type TestUser } from '@gatehouse/testing';
import type { Redis } from 'ioredis';
import { mintTokenSecret } from '../auth/api-token-format';
import { callCommand } from '../commands/testing/command-clients';
import {
  createMember,
  createSurfacesHarness,
  createTestTenant,
  mintTestToken,
  type SurfacesHarness,
} from '../commands/testing/surfaces-harness';

// `GET /v1/revocations?since=&limit=` (revocations.list, docs/decisions/0065-revocations-catch-up-endpoint.md)
// against the real Postgres: a tenant credential reads its tenant's stream, a gateway token the platform stream,
// and the holder's HTTP reader feeds a RevocationSubscriber from it.

jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

let h: SurfacesHarness;
let acme: TestTenant;
let globex: TestTenant;
let owner: TestUser;
let baseUrl: string;
const tokens = { owner: '', worker: '', globexWorker: '', gateway: '' };
/** Tokens of acme revoked through the API, in order: each is one `token_revoked` event. */
const revoked: string[] = [];

async function gatewayToken(): Promise<string> {
  const minted = mintTokenSecret('gateway');
  await insertGatewayToken({
    ownerUrl: h.testDb.ownerUrl,
    name: 'gateway revocations',
    scopes: ['revocations:read'] satisfies Scope[],
    pool: 'default',
    secretHash: minted.secretHash,
    prefix: minted.prefix,
    expiresAt: null,
  });
  return minted.secret;
}

async function get(path: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await h.app.inject({
    method: 'GET',
    url: path,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
}

async function page(path: string, token: string): Promise<RevocationsPage> {
  const answer = await get(path, token);
  if (answer.status !== 200)
    throw new Error(`expected 200, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as unknown as RevocationsPage;
}

async function revokeAcmeToken(): Promise<string> {
  const victim = await mintTestToken(h.db, acme, owner, { kind: 'user' });
  const result = await callCommand('rest', h.app, 'tokens.revoke', { tokenId: victim.id }, tokens.owner);
  if (!result.ok) throw new Error(`revoke answered ${result.status}`);
  revoked.push(victim.id);
  return victim.id;
}

const tokenIdsOf = (event: Readonly<Record<string, unknown>>): readonly string[] =>
  (event['subject'] as { tokenIds?: string[] } | undefined)?.tokenIds ?? [];

beforeAll(async () => {
  h = await createSurfacesHarness();
  acme = await createTestTenant(h.db, { slug: `acme-${randomUUID().slice(0, 6)}` });
  globex = await createTestTenant(h.db, { slug: `globex-${randomUUID().slice(0, 6)}` });
  owner = await createMember(h.db, acme, 'owner');
  const globexOwner = await createMember(h.db, globex, 'owner');
  tokens.owner = (await mintTestToken(h.db, acme, owner, { kind: 'user' })).secret;
  const worker = { kind: 'worker' as const, scopes: ['revocations:read' as const], pool: 'default' };
  tokens.worker = (await mintTestToken(h.db, acme, owner, worker)).secret;
  tokens.globexWorker = (await mintTestToken(h.db, globex, globexOwner, worker)).secret;
  tokens.gateway = await gatewayToken();
  await revokeAcmeToken();
  await revokeAcmeToken();
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
});

describe('revocations.list', () => {
  it("gives a worker token its tenant's events after a revoke, paginated by position", async () => {
    const all = await page('/v1/revocations?since=0', tokens.worker);
    expect(all.stream).toBe('tenant');
    const mine = all.events.filter((e) => tokenIdsOf(e).some((id) => revoked.includes(id)));
    expect(mine.map((e) => ({ kind: e.kind, tenantId: e.tenantId, tokenIds: tokenIdsOf(e) }))).toEqual(
      revoked.map((id) => ({ kind: 'token_revoked', tenantId: acme.id, tokenIds: [id] })),
    );
    // Tenant positions: gapless from 1, the head is the last one.
    expect(all.events.map((e) => e.seq)).toEqual(all.events.map((_e, i) => i + 1));
    expect(all).toMatchObject({ head: all.events.length, next: all.events.length, hasMore: false });

    const first = await page('/v1/revocations?since=0&limit=1', tokens.worker);
    expect(first).toMatchObject({ next: 1, hasMore: true, head: all.head });
    expect(first.events).toEqual([all.events[0]]);
    const rest = await page(`/v1/revocations?since=${first.next}&limit=1000`, tokens.worker);
    expect(rest.events).toEqual(all.events.slice(1));
    const atHead = await page(`/v1/revocations?since=${all.head}`, tokens.worker);
    expect(atHead).toMatchObject({ events: [], next: all.head, head: all.head, hasMore: false });
  });

  it('gives a gateway token the platform stream, every tenant in one position sequence', async () => {
    const platform = await page('/v1/revocations?since=0&limit=1000', tokens.gateway);
    expect(platform.stream).toBe('platform');
    for (const id of revoked)
      expect(platform.events).toContainEqual(
        expect.objectContaining({ kind: 'token_revoked', tenantId: acme.id, subject: { tokenIds: [id] } }),
      );
    const seqs = platform.events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(platform.head).toBe(seqs.at(-1));
  });

  it("shows another tenant's worker none of this tenant's events", async () => {
    await revokeAcmeToken();
    const answer = await get('/v1/revocations?since=0&limit=1000', tokens.globexWorker);
    expect(answer.status).toBe(200);
    const foreign = answer.body as unknown as RevocationsPage;
    expect(foreign.stream).toBe('tenant');
    expect(foreign.events.filter((e) => e.tenantId !== globex.id)).toEqual([]);
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(acme.id);
    for (const id of revoked) expect(text).not.toContain(id);
  });

  it('refuses a negative, malformed or unknown since and a limit over 1000 with a typed 400', async () => {
    const head = (await page('/v1/revocations?since=0', tokens.worker)).head;
    expect(await get('/v1/revocations?since=-1', tokens.worker)).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
    expect(await get('/v1/revocations?since=abc', tokens.worker)).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
    expect(await get('/v1/revocations?since=0&limit=1001', tokens.worker)).toMatchObject({
      status: 400,
      body: { code: 'validation_failed' },
    });
    expect(await get(`/v1/revocations?since=${head + 1}`, tokens.worker)).toMatchObject({
      status: 400,
      body: { code: 'bad_cursor' },
    });
  });
});

describe('the HTTP reader of a holder', () => {
  let redis: Redis | undefined;
  let subscriptions: RedisChannelMultiplexer | undefined;
  let subscriber: RevocationSubscriber | undefined;

  afterAll(async () => {
    await subscriber?.close();
    await subscriptions?.close();
    if (redis) await closeRedis(redis);
  });

  it("feeds a RevocationSubscriber the worker's tenant stream from the API, and rejects a refusal typed", async () => {
    const readSince = createHttpRevocationsReader({ baseUrl, token: tokens.worker });
    redis = createRedisConnection({
      url: testRedisUrl(),
      name: 'revocations-http-reader',
      purpose: 'subscriber',
    });
    subscriptions = new RedisChannelMultiplexer(redis);
    const events: RevocationEvent[] = [];
    const revalidations: RevalidateReason[] = [];
    subscriber = new RevocationSubscriber({
      subscriptions,
      namespace: `gh-test-revocations-http-${randomBytes(6).toString('hex')}`,
      stream: { stream: 'tenant', tenantId: acme.id },
      readSince,
      since: 0,
      pageSize: 1,
      onEvent: (event) => void events.push(event),
      revalidateAll: (reason) => void revalidations.push(reason),
    });
    // start() with a position catches up from the ledger before it resolves, page by page (pageSize 1).
    await subscriber.start();
    expect(revalidations).toEqual([]);
    expect(events.filter((e) => e.kind === 'token_revoked').map((e) => tokenIdsOf(e)[0])).toEqual(revoked);
    expect(subscriber.lastSeq).toBe(events.at(-1)?.seq);

    await expect(readSince(subscriber.lastSeq + 1, 10)).rejects.toEqual(
      expect.objectContaining({ name: 'RevocationsReadError', status: 400, code: 'bad_cursor' }),
    );
    const refused = createHttpRevocationsReader({ baseUrl, token: 'ghw_not-a-token' });
    await expect(refused(0, 10)).rejects.toBeInstanceOf(RevocationsReadError);
  });
});
