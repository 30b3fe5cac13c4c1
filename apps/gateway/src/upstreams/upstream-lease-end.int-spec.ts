import { randomBytes } from 'node:crypto';
import { testNamespaces, TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import { startSignedInStack, type SignedInStack } from './testing/signed-in-member-stack.js';

// A gateway lease that carries an access token ends with the token (decision 0082): renewing re-decides it but never
// lengthens it. Through the real API and gateway, oidc-provider issuing 10-second access tokens: the gateway's
// upstream renews once, sees the lease was not lengthened, and stops renewing (before, it renewed ever faster until
// the end, an audited renewal each time); new calls lease again, and the old connection closes at its lease's end.

jest.setTimeout(120_000);

const QUEUE_PREFIX = `gh-test-${randomBytes(6).toString('hex')}`;
/** This file's own queue prefix and its own revocation namespace (its API's; its gateway subscribes under it). */
const namespaces = { ...testNamespaces(), QUEUE_PREFIX };
const SERVER = 'signed';
const TOOL = `mcp__${SERVER}__echo`;

let stack: SignedInStack;

/** A real SDK client of the member on the workspace endpoint. */
const connect = () => stack.connect();

beforeAll(async () => {
  stack = await startSignedInStack({
    name: 'lease-end-gateway-test',
    namespaces,
    server: SERVER,
    accessTokenTtlSeconds: 10,
    refusalBody: '{"error":"invalid_token","error_description":"upstream secret words"}',
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(() => stack.resetUpstream());

interface LeaseEnd {
  readonly id: string;
  readonly released: boolean;
  readonly revoked: boolean;
  readonly renewals: number;
}

/** The server's leases since `since` with their audited renewals, as the database superuser reads them. */
const leaseEndsSince = (since: Date): Promise<LeaseEnd[]> =>
  stack.leaseRows<LeaseEnd>(
    `SELECT l.id, l.released_at IS NOT NULL AS released, l.revoked_at IS NOT NULL AS revoked,
            (SELECT count(*)::int FROM audit_events a
              WHERE a.action = 'leases.renewed' AND a.target_type = 'lease' AND a.target_id = l.id::text) AS renewals
       FROM leases l
      WHERE l.workspace_id = $1 AND l.server_name = $2 AND l.issued_at >= $3 ORDER BY l.issued_at`,
    since,
  );

/** Resolves once the first of the server's leases since `since` is released (its upstream closed). */
async function firstReleased(since: Date): Promise<LeaseEnd> {
  for (;;) {
    const [first] = await leaseEndsSince(since);
    if (first?.released === true) return first;
    await new Promise((done) => setTimeout(done, 250));
  }
}

describe('a gateway lease that carries an access token', () => {
  it('is renewed once, not lengthened, then left to end: new calls lease again, the old connection closes at its end', async () => {
    const since = new Date();
    const client = await connect();
    try {
      await expect(client.callTool({ name: TOOL, arguments: { message: 'first' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'first' }],
      });
      const first = await firstReleased(since);
      // One audited renewal (the one that was not lengthened), not a renewal every few milliseconds to its end.
      expect(first).toMatchObject({ renewals: 1, revoked: false });
      // The next call is served on a new lease.
      await expect(client.callTool({ name: TOOL, arguments: { message: 'next' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'next' }],
      });
      const leases = await leaseEndsSince(since);
      expect(leases.length).toBeGreaterThanOrEqual(2);
      expect(leases.filter((lease) => lease.id !== first.id && !lease.released)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
