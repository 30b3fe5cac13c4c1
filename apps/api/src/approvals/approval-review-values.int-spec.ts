import type { ApprovalRequest } from '@gatehouse/db';
import { TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import { Client } from 'pg';
import { createSurfacesHarness, type SurfacesHarness } from '../commands/testing/surfaces-harness';
import {
  createApprovalWorld,
  requestsOf,
  runAs,
  type ApprovalWorld,
  type Who,
} from './testing/approval-world';

// What approvers see of env and header VALUES, and what the keyed fingerprint counts, through the real command
// stack (REST over the real Fastify app, real Postgres): a value change names its key in the review diff
// (never the value), a secret that is a URL counts its destination but not its credential, and an approval
// recorded under the old unkeyed fingerprint goes stale with its own reason.

jest.setTimeout(120_000);

let h: SurfacesHarness;

beforeAll(async () => {
  h = await createSurfacesHarness();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, TEST_DATABASE_TIMEOUT_MS);

const run = (w: ApprovalWorld, who: Who, name: string, input: Record<string, unknown>) =>
  runAs(h, w, who, name, input);

/** The project source's version per workspace, for compare-and-swap writes. */
const versions = new Map<string, number>();

async function putProject(w: ApprovalWorld, who: Who, servers: Record<string, unknown>): Promise<void> {
  await run(w, who, 'definitions.sources.put', {
    tier: 'project',
    workspaceId: w.workspaceId,
    document: { mcpServers: servers },
    ...(versions.has(w.workspaceId) ? { expectedVersion: versions.get(w.workspaceId) } : {}),
  }).then((out) => versions.set(w.workspaceId, out.version as number));
}

async function openRequestFor(w: ApprovalWorld, serverName: string): Promise<ApprovalRequest> {
  const open = (await requestsOf(h, w)).filter(
    (row) => row.status === 'open' && row.serverName === serverName,
  );
  if (open.length !== 1) throw new Error(`expected one open request for ${serverName}, got ${open.length}`);
  return open[0] as ApprovalRequest;
}

async function approve(w: ApprovalWorld, request: ApprovalRequest): Promise<void> {
  await run(w, 'admin', 'approvals.requests.decide', {
    requestId: request.id,
    decision: 'approve',
    seenFingerprint: request.definitionFingerprint,
    seenIdentityKey: request.identityKey,
  });
}

interface Activation {
  state: string;
  staleBecause: string[];
}

async function activationOf(w: ApprovalWorld, serverName: string): Promise<Activation> {
  const view = await run(w, 'owner', 'definitions.effective', {
    workspaceId: w.workspaceId,
    view: 'workspace',
  });
  const entry = (view.entries as { name: string; activation: Activation }[]).find(
    (e) => e.name === serverName,
  );
  if (entry === undefined) throw new Error(`no entry ${serverName}`);
  return entry.activation;
}

/** The request as approvers read it over REST. */
async function requestView(w: ApprovalWorld, id: string): Promise<Record<string, unknown>> {
  return run(w, 'admin', 'approvals.requests.get', { requestId: id });
}

const stdio = (env: Record<string, string>) => ({ type: 'stdio', command: 'node', args: ['server.js'], env });

describe('the review diff names env and header keys whose values changed (item 9)', () => {
  it('names a changed, an added and a removed env key, never a value', async () => {
    const w = await createApprovalWorld(h, { trusted: true });
    await putProject(w, 'alice', {
      runner: stdio({ NODE_OPTIONS: '--max-old-space-size=512', LOG_LEVEL: 'info', OLD_FLAG: '1' }),
    });
    await approve(w, await openRequestFor(w, 'runner'));
    expect((await activationOf(w, 'runner')).state).toBe('approved');

    await putProject(w, 'alice', {
      runner: stdio({ NODE_OPTIONS: '--require ./evil.js', LOG_LEVEL: 'info', NEW_FLAG: '1' }),
    });
    const reopened = await openRequestFor(w, 'runner');
    const view = await requestView(w, reopened.id);
    const changes = view.changes as { kind: string; path: string[]; before?: unknown; after?: unknown }[];
    const valueChanges = changes.filter((change) => change.path.includes('values'));
    expect(valueChanges).toEqual([
      { kind: 'added', path: ['transport', 'env', 'values', 'NEW_FLAG'] },
      { kind: 'changed', path: ['transport', 'env', 'values', 'NODE_OPTIONS'] },
      { kind: 'removed', path: ['transport', 'env', 'values', 'OLD_FLAG'] },
    ]);
    const body = JSON.stringify(view);
    expect(body).not.toContain('evil.js');
    expect(body).not.toContain('max-old-space-size');
    // What is kept to compute it never reaches a reader either.
    expect(body).not.toContain('reviewDigests');
  });

  it('names a header whose value changed on an http server', async () => {
    const w = await createApprovalWorld(h, { trusted: true });
    const remote = (team: string) => ({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Team': team, 'X-Region': 'eu' },
    });
    await putProject(w, 'alice', { remote: remote('blue') });
    await approve(w, await openRequestFor(w, 'remote'));
    await putProject(w, 'alice', { remote: remote('red') });
    const view = await requestView(w, (await openRequestFor(w, 'remote')).id);
    expect(view.changes).toEqual([{ kind: 'changed', path: ['transport', 'headers', 'values', 'X-Team'] }]);
  });
});

describe('a secret that is a URL counts where it points, never its credential (item 11)', () => {
  it('rotating the password keeps the approval; moving the host makes it stale and names the key', async () => {
    const w = await createApprovalWorld(h, { trusted: true });
    const db = (url: string) => ({ store: stdio({ DATABASE_URL: url }) });
    await putProject(w, 'alice', db('postgres://app:first-password@db.internal:5432/app'));
    const first = await openRequestFor(w, 'store');
    await approve(w, first);

    await putProject(w, 'alice', db('postgres://app:rotated-password@db.internal:5432/app?sslmode=require'));
    expect(await activationOf(w, 'store')).toMatchObject({ state: 'approved', staleBecause: [] });
    expect((await requestsOf(h, w)).filter((row) => row.status === 'open')).toEqual([]);

    await putProject(w, 'alice', db('postgres://app:rotated-password@evil.example:5432/app'));
    expect(await activationOf(w, 'store')).toMatchObject({ state: 'stale', staleBecause: ['fingerprint'] });
    const moved = await requestView(w, (await openRequestFor(w, 'store')).id);
    expect(moved.changes).toEqual([
      { kind: 'changed', path: ['transport', 'env', 'values', 'DATABASE_URL'] },
    ]);
    expect(JSON.stringify(moved)).not.toContain('evil.example');
    expect(JSON.stringify(moved)).not.toContain('password');
  });
});

describe('the keyed fingerprint (item 10)', () => {
  it('is v2, keyed per tenant: the same definition has another fingerprint in another tenant', async () => {
    const one = await createApprovalWorld(h, { trusted: true });
    const two = await createApprovalWorld(h, { trusted: true });
    const same = { runner: stdio({ NODE_OPTIONS: '--max-old-space-size=512' }) };
    await putProject(one, 'alice', same);
    await putProject(two, 'alice', same);
    const a = await openRequestFor(one, 'runner');
    const b = await openRequestFor(two, 'runner');
    expect(a.definitionFingerprint).toMatch(/^v2:k1:[0-9a-f]{64}$/);
    expect(b.definitionFingerprint).toMatch(/^v2:k1:[0-9a-f]{64}$/);
    expect(a.definitionFingerprint).not.toBe(b.definitionFingerprint);
  });

  it('an approval recorded under the unkeyed v1 fingerprint goes stale with reason fingerprint_scheme', async () => {
    const w = await createApprovalWorld(h, { trusted: true });
    await putProject(w, 'alice', { runner: stdio({ LOG_LEVEL: 'info' }) });
    const request = await openRequestFor(w, 'runner');
    await approve(w, request);
    // As a database from before the keyed fingerprint holds it (approvals are history: only an administrator
    // can write the old value back, which is what the upgrade leaves behind).
    const admin = new Client({ connectionString: h.testDb.adminUrl });
    await admin.connect();
    try {
      await admin.query('UPDATE approvals SET definition_fingerprint = $1 WHERE request_id = $2', [
        `sha256:${'ab'.repeat(32)}`,
        request.id,
      ]);
    } finally {
      await admin.end();
    }
    expect(await activationOf(w, 'runner')).toMatchObject({
      state: 'stale',
      staleBecause: ['fingerprint_scheme'],
    });
  });
});

describe('env keys are never hidden: the request and its review diff name every key, never a value', () => {
  const tokenKey = 'ghp_0123456789abcdefABCDEF0123456789abcd';
  const canary = '--import=data:text/javascript,KEYS_SHOWN_CANARY';

  it('a first request shows npm_config_node_options and a token-shaped key by name', async () => {
    const w = await createApprovalWorld(h, { trusted: true });
    await putProject(w, 'alice', {
      runner: stdio({ npm_config_node_options: canary, [tokenKey]: 'TOKEN_KEY_CANARY' }),
    });
    const view = await requestView(w, (await openRequestFor(w, 'runner')).id);
    expect(view.projection).toMatchObject({
      transport: { kind: 'stdio', env: { state: 'redacted', keys: ['npm_config_node_options', tokenKey] } },
    });
    expect(JSON.stringify(view)).not.toMatch(/CANARY|--import/);
  });

  it('a key added to an approved server is named in the keys diff and the value diff', async () => {
    const w = await createApprovalWorld(h, { trusted: true });
    await putProject(w, 'alice', { runner: stdio({ LOG_LEVEL: 'info' }) });
    await approve(w, await openRequestFor(w, 'runner'));
    await putProject(w, 'alice', { runner: stdio({ LOG_LEVEL: 'info', npm_config_node_options: canary }) });
    const view = await requestView(w, (await openRequestFor(w, 'runner')).id);
    expect(view.changes).toEqual([
      {
        kind: 'changed',
        path: ['transport', 'env', 'keys'],
        before: ['LOG_LEVEL'],
        after: ['LOG_LEVEL', 'npm_config_node_options'],
      },
      { kind: 'added', path: ['transport', 'env', 'values', 'npm_config_node_options'] },
    ]);
    expect(JSON.stringify(view)).not.toMatch(/CANARY|--import/);
  });
});
