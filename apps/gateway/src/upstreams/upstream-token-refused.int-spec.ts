import {
  bearerDigestOf,
  testNamespaces,
  TEST_DATABASE_TIMEOUT_MS,
  type OidcProviderProcess,
  type TokenRefusingUpstream,
} from '@gatehouse/testing';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startSignedInStack, type SignedInStack } from './testing/signed-in-member-stack.js';

// An upstream 401 on a gateway lease that carries an access token (decisions 0082 and 0098), through the
// real API and gateway: the member signs in through the API against oidc-provider on loopback; the upstream
// MCP server (an in-process SDK server) takes a bearer unless the test has had it refuse that token (as an
// issuer that revoked it). The gateway retries once per connection with a fresh lease asked with the refused
// token's digest (the API refreshes it: one grant), and a second 401 is `auth`, typed and content-free.
// Leases are released with the connection.

jest.setTimeout(120_000);

/** This file's own queue and revocation namespaces (its API's; its gateway subscribes under REDIS_KEY_PREFIX). */
const namespaces = testNamespaces();
const SERVER = 'signed';
const TOOL = `mcp__${SERVER}__echo`;

let stack: SignedInStack;
let provider: OidcProviderProcess;
let upstream: TokenRefusingUpstream;

type LeaseRow = { released: boolean; revoked: boolean };

/** The server's leases since `since`, as the database superuser reads them. */
const leasesSince = (since: Date): Promise<LeaseRow[]> =>
  stack.leaseRows<LeaseRow>(
    `SELECT released_at IS NOT NULL AS released, revoked_at IS NOT NULL AS revoked FROM leases
      WHERE workspace_id = $1 AND server_name = $2 AND issued_at >= $3 ORDER BY issued_at`,
    since,
  );

/** The member's current access token, as a lease carries it (the lease released at once). */
const currentToken = () => stack.currentToken();

/** A real SDK client of the member on the workspace endpoint. */
const connect = () => stack.connect();

/** The JSON-RPC error a call through the gateway ended with. */
async function refusalOf(call: Promise<unknown>): Promise<McpError> {
  const error = await call.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof McpError)) throw new Error(`expected a JSON-RPC error, got ${String(error)}`);
  return error;
}

type SignedInClient = Awaited<ReturnType<typeof connect>>;

/** The two read surfaces that go through the same leased call as tools/call, each as one request of the member. */
const READS: Record<'prompts/get' | 'resources/read', (client: SignedInClient) => Promise<unknown>> = {
  'prompts/get': async (client) => {
    const name = (await client.listPrompts()).prompts.find((p) => p.name.endsWith('greeting'))?.name;
    if (name === undefined) throw new Error('the greeting prompt is not served');
    return client.getPrompt({ name });
  },
  'resources/read': async (client) => {
    const uri = (await client.listResources()).resources.find((r) => r.uri.endsWith('signed://note'))?.uri;
    if (uri === undefined) throw new Error('the note resource is not served');
    return client.readResource({ uri });
  },
};

beforeAll(async () => {
  stack = await startSignedInStack({
    name: 'upstream-401-gateway-test',
    namespaces,
    server: SERVER,
    refusalBody: '{"error":"invalid_token","error_description":"upstream secret words"}',
  });
  ({ provider, upstream } = stack);
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(() => stack.resetUpstream());

describe("the gateway's upstream refusing a lease's access token", () => {
  it('connects with a fresh lease whose token the API refreshed (one grant) and the call succeeds', async () => {
    const before = await currentToken();
    upstream.refused.add(bearerDigestOf(before));
    const since = new Date();
    const client = await connect();
    try {
      await expect(client.callTool({ name: TOOL, arguments: { message: 'hi' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'hi' }],
      });

      expect((await provider.stats()).refreshGrants).toBe(1);
      const after = await currentToken();
      expect(after).not.toBe(before);
      // The refused token once, then only the refreshed one; never a request without a bearer.
      expect(upstream.seen[0]).toEqual({ digest: bearerDigestOf(before), status: 401 });
      expect(
        upstream.seen.slice(1).every((s) => s.digest === bearerDigestOf(after) && s.status === 200),
      ).toBe(true);
      // A second call on the warm connection asks nothing more of the API or the issuer.
      await expect(client.callTool({ name: TOOL, arguments: { message: 'again' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'again' }],
      });
      expect((await provider.stats()).refreshGrants).toBe(1);
      // The gateway's lease and its fresh lease are held (not released) while the connection serves; the
      // test's own lease of `currentToken` is released.
      const rows = await leasesSince(since);
      expect(rows.filter((row) => !row.released && !row.revoked)).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('a token refused mid-connection is retried once with a fresh lease; refused again: auth, then a new lease', async () => {
    const client = await connect();
    try {
      // The previous case's connection spent its one retry: let it go (refused for good), then a warm
      // connection that has not retried yet.
      upstream.refuseAll.value = true;
      await refusalOf(client.callTool({ name: TOOL, arguments: { message: 'drop' } }));
      upstream.refuseAll.value = false;
      await client.callTool({ name: TOOL, arguments: { message: 'warm' } });
      await provider.configure({ resetStats: true });
      const inUse = upstream.seen.at(-1)?.digest;
      if (inUse === null || inUse === undefined) throw new Error('no bearer seen');
      upstream.seen.length = 0;
      upstream.refused.add(inUse);

      // Refused once on the open connection: one fresh lease (one grant), the same call answered.
      await expect(client.callTool({ name: TOOL, arguments: { message: 'mid' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'mid' }],
      });
      expect((await provider.stats()).refreshGrants).toBe(1);
      expect(upstream.seen[0]).toEqual({ digest: inUse, status: 401 });
      const refreshed = upstream.seen.at(-1);
      expect(refreshed?.status).toBe(200);
      expect(refreshed?.digest).not.toBe(inUse);

      // Refused again on the same connection: it has no retry left. Typed, content-free, one attempt.
      upstream.refuseAll.value = true;
      upstream.seen.length = 0;
      const refusal = await refusalOf(client.callTool({ name: TOOL, arguments: { message: 'no' } }));
      expect(refusal.data).toEqual({ reason: 'upstream_unavailable', server: SERVER, detail: 'auth' });
      expect(JSON.stringify(refusal)).not.toContain('upstream secret words');
      expect(upstream.seen).toEqual([{ digest: refreshed?.digest, status: 401 }]);

      // That connection was let go: the next call leases again and is served once the upstream takes tokens.
      upstream.refuseAll.value = false;
      upstream.refused.clear();
      await expect(client.callTool({ name: TOOL, arguments: { message: 'back' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'back' }],
      });
    } finally {
      await client.close();
    }
  });

  it('refused again after the fresh lease: auth, two attempts, one grant, both leases released', async () => {
    // A new principal connection: close the warm one by making its next call fail for good.
    const client = await connect();
    try {
      upstream.refuseAll.value = true;
      await refusalOf(client.callTool({ name: TOOL, arguments: { message: 'drop' } }));
      await provider.configure({ resetStats: true });
      upstream.seen.length = 0;
      const first = await currentToken();
      const since = new Date();

      const refusal = await refusalOf(client.callTool({ name: TOOL, arguments: { message: 'no' } }));
      expect(refusal.data).toEqual({ reason: 'upstream_unavailable', server: SERVER, detail: 'auth' });

      expect((await provider.stats()).refreshGrants).toBe(1);
      const second = await currentToken();
      expect(second).not.toBe(first);
      // Exactly two attempts: the lease's token, then the fresh lease's; both refused; never unauthenticated.
      expect(upstream.seen).toEqual([
        { digest: bearerDigestOf(first), status: 401 },
        { digest: bearerDigestOf(second), status: 401 },
      ]);
      // The gateway's two leases and the test's own: all released, none left live.
      const rows = await leasesSince(since);
      expect(rows).toHaveLength(3);
      expect(rows.every((row) => row.released && !row.revoked)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it.each(['prompts/get', 'resources/read'] as const)(
    '%s refused again after the fresh lease: auth, and the connection is let go (its leases released) as for tools/call',
    async (surface) => {
      const read = READS[surface];
      const client = await connect();
      try {
        // Whatever connection an earlier case left: let it go (refused for good), then a warm one that has not
        // retried yet, served on this surface.
        upstream.refuseAll.value = true;
        await refusalOf(client.callTool({ name: TOOL, arguments: { message: 'drop' } }));
        upstream.refuseAll.value = false;
        const since = new Date();
        await expect(read(client)).resolves.toBeDefined();
        const inUse = upstream.seen.at(-1)?.digest;
        if (inUse === null || inUse === undefined) throw new Error('no bearer seen');

        // Refused once: the one fresh lease, the same request answered.
        upstream.refused.add(inUse);
        await expect(read(client)).resolves.toBeDefined();
        const refreshed = upstream.seen.at(-1);
        expect(refreshed?.status).toBe(200);
        expect(refreshed?.digest).not.toBe(inUse);
        expect(await leasesSince(since)).toEqual([
          { released: false, revoked: false },
          { released: false, revoked: false },
        ]);

        // Refused again: no retry left. Typed, content-free, one attempt; and the connection is let go, so both
        // its leases are released by the time the refusal is answered.
        upstream.refuseAll.value = true;
        upstream.seen.length = 0;
        const refusal = await refusalOf(read(client));
        expect(refusal.data).toEqual({ reason: 'upstream_unavailable', server: SERVER, detail: 'auth' });
        expect(JSON.stringify(refusal)).not.toContain('upstream secret words');
        // The list before it is answered from the catalog; the refused request is the one upstream attempt.
        expect(upstream.seen).toEqual([{ digest: refreshed?.digest, status: 401 }]);
        expect(await leasesSince(since)).toEqual([
          { released: true, revoked: false },
          { released: true, revoked: false },
        ]);

        // The next request leases again and is served once the upstream takes tokens.
        upstream.refuseAll.value = false;
        upstream.refused.clear();
        await expect(read(client)).resolves.toBeDefined();
        const rows = await leasesSince(since);
        expect(rows).toHaveLength(3);
        expect(rows.at(-1)).toEqual({ released: false, revoked: false });
      } finally {
        await client.close();
      }
    },
  );
});
