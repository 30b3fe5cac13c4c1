import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ROLE_SCOPES } from '@gatehouse/commands';
import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
import { createDatabase, type Database } from '@gatehouse/db';
import { createTestTenant, createTestUser, createTestWorkspace } from '@gatehouse/testing';
import type { TenantPrincipal } from '../apps/api/src/auth/principal';
import { DefinitionCipher } from '../apps/api/src/effective-view/definition-cipher';
import { writeDefinitionSource } from '../apps/api/src/definitions/write-definition-source';
import { fixed, median, type BenchContext, type BenchSection } from './bench-context';

// What a tenant-wide write costs once approval requests are opened in its transaction: a managed source edited
// in a tenant with many workspaces (each with its own project source) re-decides every workspace and opens a
// request per workspace for the changed server. Baseline: the same edit in a tenant with one workspace.

const WORKSPACES = Number(process.env.BENCH_FANOUT_WORKSPACES ?? 50);
const MANAGED_SOURCES = Number(process.env.BENCH_FANOUT_MANAGED ?? 15);
const EDITS = Number(process.env.BENCH_FANOUT_EDITS ?? 8);

function cipherForBench(): DefinitionCipher {
  const ring = KeyRing.parse({ keys: `bench:${randomBytes(32).toString('base64')}`, activeKeyId: 'bench' });
  if (!ring.ok) throw new Error('approval-fanout: key ring');
  return new DefinitionCipher(new EnvelopeCipher(ring.keyRing));
}

function principalFor(tenantId: string, userId: string): TenantPrincipal {
  return {
    type: 'tenant',
    tenantId,
    tenantSlug: 'bench',
    userId,
    role: 'owner',
    via: 'session',
    sessionId: null,
    tokenId: null,
    scopes: ROLE_SCOPES.owner,
    workspaceIds: [],
    pool: null,
  };
}

function serversDocument(prefix: string, edit: number): object {
  return {
    mcpServers: {
      [`${prefix}-a`]: { command: 'node', args: [`${prefix}.js`, `--edit=${edit}`] },
      [`${prefix}-b`]: { type: 'http', url: `https://${prefix}.example.com/mcp` },
    },
  };
}

interface Tenant {
  readonly principal: TenantPrincipal;
}

async function seedTenant(db: Database, cipher: DefinitionCipher, workspaces: number): Promise<Tenant> {
  const tenant = await createTestTenant(db);
  const user = await createTestUser(db, tenant.id, { role: 'owner' });
  const principal = principalFor(tenant.id, user.id);
  const write = (input: Parameters<typeof writeDefinitionSource>[2]['input'], value: object) =>
    writeDefinitionSource(db, cipher, {
      principal,
      input,
      document: { kind: 'value', value },
      action: 'definitions.sources.put',
    });
  for (let i = 0; i < workspaces; i += 1) {
    const workspace = await createTestWorkspace(db, tenant.id, { trusted: true });
    await write({ tier: 'project', workspaceId: workspace.id }, serversDocument(`project${i}`, 0));
  }
  for (let i = 0; i < MANAGED_SOURCES; i += 1) {
    await write({ tier: 'managed', name: `policy-${i}` }, serversDocument(`managed${i}`, 0));
  }
  return { principal };
}

/** Edits managed source 0 EDITS times (each edit a new identity: supersede + open per workspace). */
async function timeEdits(db: Database, cipher: DefinitionCipher, tenant: Tenant): Promise<number[]> {
  const times: number[] = [];
  for (let edit = 1; edit <= EDITS; edit += 1) {
    const started = performance.now();
    await writeDefinitionSource(db, cipher, {
      principal: tenant.principal,
      input: { tier: 'managed', name: 'policy-0', expectedVersion: edit },
      document: { kind: 'value', value: serversDocument('managed0', edit) },
      action: 'definitions.sources.put',
    });
    times.push(performance.now() - started);
  }
  return times;
}

export async function benchApprovalFanout(ctx: BenchContext): Promise<BenchSection> {
  const db = createDatabase({ url: ctx.testDb.appUrl, poolMax: 4 });
  const cipher = cipherForBench();
  try {
    ctx.log(`approval-fanout: seeding 1 + ${WORKSPACES} workspaces, ${MANAGED_SOURCES} managed sources each`);
    const single = await seedTenant(db, cipher, 1);
    const many = await seedTenant(db, cipher, WORKSPACES);
    const singleTimes = await timeEdits(db, cipher, single);
    const manyTimes = await timeEdits(db, cipher, many);
    const opened = await db.withTenant(many.principal.tenantId, (tx) =>
      tx.approvalRequest.count({ where: { serverName: 'managed0-a', status: 'open' } }),
    );
    if (opened !== WORKSPACES)
      throw new Error(`approval-fanout: expected ${WORKSPACES} open requests, found ${opened}`);
    const singleMs = median(singleTimes);
    const manyMs = median(manyTimes);
    return {
      title: 'Approval request fan-out on a tenant-wide write',
      method:
        `A managed source (2 servers) edited ${EDITS} times, each edit a new identity for one server, in a tenant with ` +
        `${WORKSPACES} trusted workspaces (each with a 2-server project source) and ${MANAGED_SOURCES} managed ` +
        'sources: every edit re-decides every workspace and, in the same transaction, supersedes and opens one ' +
        'request per workspace. Baseline: the same edit in a tenant with one workspace. Median of the edits.',
      rows: [
        { label: '1 workspace: edit (ms, median)', value: fixed(singleMs, 1) },
        { label: `${WORKSPACES} workspaces: edit (ms, median)`, value: fixed(manyMs, 1) },
        { label: 'cost per extra workspace (ms)', value: fixed((manyMs - singleMs) / (WORKSPACES - 1), 2) },
      ],
      ratio: { label: `${WORKSPACES} workspaces / 1 workspace (edit time)`, value: manyMs / singleMs },
    };
  } finally {
    await db.close();
  }
}
