// One "API process" of the multi-process refresh test: a RefreshCoordinator over the Postgres token store and
// its own Redis connection, in its own node process. Reads commands as JSON lines on stdin and answers each with
// one JSON line on stdout (never a token: only whether callers got one, and a digest to compare across
// processes). Run through jiti by startRefreshCoordinatorProcess.
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { createRedisConnection, FencingLock } from '@gatehouse/coordination';
import { createDatabase } from '@gatehouse/db';
import { createFixedResolver, createPinnedFetch } from '@gatehouse/egress';
import { RefreshCoordinator, type CredentialKey, type RegisteredClient } from '@gatehouse/oauth';
import { testOAuthCipher } from '../oauth-test.cipher';
import { PostgresTokenStore } from '../postgres-token.store';

interface ChildConfig {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly namespace: string;
  readonly keys: string;
  readonly client: RegisteredClient;
  readonly lockTtlMs: number;
  readonly grantTimeoutMs: number;
  readonly leaseMarginMs: number;
}

interface Command {
  readonly id: number;
  readonly op: 'get';
  readonly key: CredentialKey;
  readonly callers: number;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[process.argv.length - 1]!) as ChildConfig;
  const db = createDatabase({ url: config.databaseUrl });
  const connection = createRedisConnection({
    url: config.redisUrl,
    name: 'oauth-refresh-child',
    purpose: 'command',
  });
  const fetch = createPinnedFetch({
    policy: {
      allowInsecureLoopback: true,
      operatorDenylist: { cidrs: [], hostnames: [] },
      operatorAllowedPrivateRanges: [],
      tenantOptedInPrivateRanges: [],
    },
    resolver: createFixedResolver({ localhost: ['127.0.0.1'] }),
    timeoutMs: 10_000,
    maxResponseBytes: 1_000_000,
  });
  const coordinator = new RefreshCoordinator({
    lock: new FencingLock({ connection, namespace: config.namespace }),
    store: new PostgresTokenStore(db, testOAuthCipher(config.keys)),
    fetch,
    clientFor: async (issuer, clientId) =>
      issuer === config.client.issuer && clientId === config.client.clientId ? config.client : null,
    lockTtlMs: config.lockTtlMs,
    grantTimeoutMs: config.grantTimeoutMs,
    leaseMarginMs: config.leaseMarginMs,
  });
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const command = JSON.parse(line) as Command;
    // A caller whose call throws (the database away, a pool timeout) is a failed caller the test counts, never
    // an unhandled rejection that kills this "API process" and hides which call failed.
    void Promise.all(
      Array.from({ length: command.callers }, () =>
        coordinator.getAccessToken(command.key).catch(() => ({ ok: false as const, reason: 'threw' })),
      ),
    ).then((results) => {
      const digests = new Set(
        results.flatMap((r) => (r.ok ? [createHash('sha256').update(r.accessToken).digest('hex')] : [])),
      );
      process.stdout.write(
        `${JSON.stringify({
          id: command.id,
          ok: results.filter((r) => r.ok).length,
          refusals: results.flatMap((r) => (r.ok ? [] : [r.reason])),
          digests: [...digests],
        })}\n`,
      );
    });
  });
  process.stdout.write('ready\n');
}

void main();
