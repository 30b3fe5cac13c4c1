import type { ApprovalRequest } from '@gatehouse/db';
import { createTestWorkspace, type TestTenant, type TestUser } from '@gatehouse/testing';
import { callCommand, type CallResult, type Surface } from '../../commands/testing/command-clients';
import {
  createMember,
  createTestTenant,
  mintTestToken,
  type SurfacesHarness,
} from '../../commands/testing/surfaces-harness';

// A small tenant for approval tests that go through the real command stack: each test makes its own, so row
// counts are its own.

export type Who = 'owner' | 'admin' | 'alice' | 'bob';

export interface ApprovalWorld {
  readonly tenant: TestTenant;
  readonly users: Record<Who, TestUser>;
  readonly tokens: Record<Who, string>;
  readonly workspaceId: string;
}

/** An owner, an admin, alice (a member who maintains the workspace), bob (a plain member), one workspace. */
export async function createApprovalWorld(
  h: SurfacesHarness,
  options: { trusted: boolean },
): Promise<ApprovalWorld> {
  const tenant = await createTestTenant(h.db);
  const users = {
    owner: await createMember(h.db, tenant, 'owner'),
    admin: await createMember(h.db, tenant, 'admin'),
    alice: await createMember(h.db, tenant, 'member'),
    bob: await createMember(h.db, tenant, 'member'),
  };
  const workspace = await createTestWorkspace(h.db, tenant.id, { trusted: options.trusted });
  await h.db.withTenant(tenant.id, (tx) =>
    tx.workspaceMember.create({
      data: { tenantId: tenant.id, workspaceId: workspace.id, userId: users.alice.id },
    }),
  );
  const tokens = {
    owner: (await mintTestToken(h.db, tenant, users.owner, { kind: 'user' })).secret,
    admin: (await mintTestToken(h.db, tenant, users.admin, { kind: 'user' })).secret,
    alice: (await mintTestToken(h.db, tenant, users.alice, { kind: 'user' })).secret,
    bob: (await mintTestToken(h.db, tenant, users.bob, { kind: 'user' })).secret,
  };
  return { tenant, users, tokens, workspaceId: workspace.id };
}

/** One command as `who`, on REST (default) or GraphQL; the result, refusals included. */
export function callAs(
  h: SurfacesHarness,
  w: ApprovalWorld,
  who: Who,
  name: string,
  input: Record<string, unknown>,
  surface: Surface = 'rest',
): Promise<CallResult> {
  return callCommand(surface, h.app, name, input, w.tokens[who]);
}

/** One command as `who` that must succeed: its output. */
export async function runAs(
  h: SurfacesHarness,
  w: ApprovalWorld,
  who: Who,
  name: string,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await callAs(h, w, who, name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.status} ${JSON.stringify(result.body)}`);
  return result.output;
}

/** Every approval request of the world's tenant, oldest first. */
export function requestsOf(h: SurfacesHarness, w: ApprovalWorld): Promise<ApprovalRequest[]> {
  return h.db.withTenant(w.tenant.id, (tx) =>
    tx.approvalRequest.findMany({ orderBy: [{ openedAt: 'asc' }, { serverName: 'asc' }, { id: 'asc' }] }),
  );
}
