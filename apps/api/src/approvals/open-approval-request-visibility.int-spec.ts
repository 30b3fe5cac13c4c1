import { TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import { createSurfacesHarness, type SurfacesHarness } from '../commands/testing/surfaces-harness';
import { callAs, createApprovalWorld, runAs, type ApprovalWorld } from './testing/approval-world';

// `approvals.requests.open` is open to every member (definitions:read: anyone may ask for
// review), but the request it answers with is the approvers' record (its projection, who authored the change,
// what changed since the last approval). A caller who may not list requests gets only the receipt: which request,
// for what identity, in what state.

jest.setTimeout(60_000);

let h: SurfacesHarness;

beforeAll(async () => {
  h = await createSurfacesHarness();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, TEST_DATABASE_TIMEOUT_MS);

const V1 = { type: 'http', url: 'https://mcp-v1.example.test/mcp' };
const V2 = { type: 'http', url: 'https://mcp-v2.example.test/mcp', headers: { 'X-Tenant': 'acme' } };

async function approvedThenChanged(w: ApprovalWorld): Promise<void> {
  const put = (document: unknown, expectedVersion?: unknown) =>
    runAs(h, w, 'alice', 'definitions.sources.put', {
      tier: 'project',
      workspaceId: w.workspaceId,
      document,
      ...(expectedVersion === undefined ? {} : { expectedVersion }),
    });
  const first = await put({ mcpServers: { github: V1 } });
  const opened = await runAs(h, w, 'admin', 'approvals.requests.open', {
    workspaceId: w.workspaceId,
    serverName: 'github',
  });
  const identity = opened.identity as { key: string; definitionFingerprint: string };
  await runAs(h, w, 'owner', 'approvals.requests.decide', {
    requestId: opened.id,
    decision: 'approve',
    seenFingerprint: identity.definitionFingerprint,
    seenIdentityKey: identity.key,
  });
  await put({ mcpServers: { github: V2 } }, first.version);
}

describe('approvals.requests.open answers only what the caller may read', () => {
  it.each(['rest', 'graphql'] as const)(
    'a member without approvals:read gets no projection, authors or changes (%s)',
    async (surface) => {
      const w = await createApprovalWorld(h, { trusted: true });
      await approvedThenChanged(w);
      const input = { workspaceId: w.workspaceId, serverName: 'github' };

      const asApprover = await callAs(h, w, 'admin', 'approvals.requests.open', input, surface);
      if (!asApprover.ok) throw new Error(JSON.stringify(asApprover.body));
      expect(asApprover.output.authorUserIds).toEqual([w.users.alice.id]);
      expect((asApprover.output.changes as unknown[]).length).toBeGreaterThan(0);
      expect(asApprover.output.previousApprovalId).not.toBeNull();
      expect(JSON.stringify(asApprover.output.projection)).toContain('mcp-v2.example.test');

      const asMember = await callAs(h, w, 'bob', 'approvals.requests.open', input, surface);
      if (!asMember.ok) throw new Error(JSON.stringify(asMember.body));
      expect(asMember.output).toMatchObject({
        id: asApprover.output.id,
        workspaceId: w.workspaceId,
        status: 'open',
        identity: { serverName: 'github' },
        projection: {},
        changes: [],
        authorUserIds: [],
        previousApprovalId: null,
        closedBy: null,
        approvalId: null,
      });
      const text = JSON.stringify(asMember.output);
      expect(text).not.toContain(w.users.alice.id);
      expect(text).not.toContain('mcp-v2.example.test');
      expect(text).not.toContain('X-Tenant');
    },
  );
});
