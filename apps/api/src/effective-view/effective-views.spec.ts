import { randomBytes, randomUUID } from 'node:crypto';
import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
import type { Approval, Workspace } from '@gatehouse/db';
import { DefinitionCipher } from './definition-cipher';
import { definitionSnapshotOf, type DefinitionSnapshot } from './definition-snapshot';
import { EffectiveViews } from './effective-views';
import { serverActivationOf } from './server-activation';

// The effective view answers per view (every entry decided) and per server (one entry, against that server's
// approvals alone). Both are the same decision: for every entry of a view, the per-server answer names the same
// state, reasons and identity as the per-view answer, with and without an approval in force.

const TENANT_ID = randomUUID();
const USER_ID = randomUUID();
const workspace = {
  id: randomUUID(),
  repositoryIdentity: 'github.com/acme/app',
  generation: 1,
  trusted: true,
} as Workspace;

function realCipher(): DefinitionCipher {
  const ring = KeyRing.parse({ keys: `k1:${randomBytes(32).toString('base64')}`, activeKeyId: 'k1' });
  if (!ring.ok) throw new Error('key ring');
  return new DefinitionCipher(new EnvelopeCipher(ring.keyRing));
}

function snapshotOf(cipher: DefinitionCipher): DefinitionSnapshot {
  const source = (tier: string, origin: string, ownerUserId: string | null, servers: object) => {
    const id = randomUUID();
    const document = JSON.stringify({ mcpServers: servers });
    return {
      id,
      tenantId: TENANT_ID,
      tier,
      origin,
      workspaceId: tier === 'project' ? workspace.id : null,
      ownerUserId,
      documentCt: cipher.sealDocument({ id, tenantId: TENANT_ID }, document),
      updatedBy: null,
    };
  };
  const variableId = randomUUID();
  return definitionSnapshotOf(cipher, TENANT_ID, {
    sources: [
      source('project', `project:${workspace.id}`, null, {
        docs: { command: 'node', args: ['docs.js'] },
        search: { command: 'node', env: { API_KEY: '${API_KEY}' } },
        paused: { command: 'node', args: ['paused.js'] },
      }),
      source('user', `user:${USER_ID}`, USER_ID, { mine: { command: 'node', args: ['mine.js'] } }),
    ],
    variables: [
      {
        id: variableId,
        scope: 'user',
        workspaceId: null,
        userId: USER_ID,
        name: 'API_KEY',
        valueCt: cipher.sealValue({ id: variableId, tenantId: TENANT_ID }, 'personal-key'),
        updatedBy: USER_ID,
      },
    ],
    overlays: [{ workspaceId: workspace.id, userId: null, serverName: 'paused', reason: null }],
    authors: [],
  });
}

/** An approval of exactly the identity the view would bind to, in force. */
function approvalOf(
  identity: NonNullable<ReturnType<EffectiveViews['evaluate']>['entries'][number]['identity']>,
) {
  return {
    id: randomUUID(),
    tenantId: TENANT_ID,
    workspaceId: workspace.id,
    identityKey: identity.key,
    serverName: identity.serverName,
    sourceTier: identity.source.tier,
    sourceOrigin: identity.source.origin,
    definitionFingerprint: identity.definitionFingerprint,
    securityIdentity: identity.securityIdentity,
    principalUserId: identity.principalUserId,
    repositoryIdentity: identity.repositoryIdentity,
    workspaceGeneration: identity.workspaceGeneration,
    decision: 'approved',
    decidedBy: randomUUID(),
    decidedAt: new Date(Date.now() - 60_000),
    expiresAt: null,
    revokedAt: null,
  } as Approval;
}

describe('EffectiveViews and serverActivationOf', () => {
  const cipher = realCipher();
  const snapshot = snapshotOf(cipher);
  const now = new Date();

  for (const userId of [null, USER_ID]) {
    const label = userId === null ? 'the workspace alone' : 'a principal';

    it(`decide every entry of ${label} alike, without approvals`, () => {
      const view = new EffectiveViews(snapshot, [], []).evaluate(workspace, userId, now);
      expect(view.entries.length).toBeGreaterThan(0);
      for (const evaluated of view.entries) {
        const server = serverActivationOf(snapshot, [], {
          workspace,
          userId,
          serverName: evaluated.entry.name,
          now,
        });
        expect(server.entry).toEqual(evaluated.entry);
        expect(server.decision).toEqual(evaluated.decision);
        expect(server.identity).toEqual(evaluated.identity);
      }
    });

    it(`decide every entry of ${label} alike, each approved as reviewed`, () => {
      const pending = new EffectiveViews(snapshot, [], []).evaluate(workspace, userId, now);
      const approvals = pending.entries.flatMap((item) =>
        item.identity === null ? [] : [approvalOf(item.identity)],
      );
      expect(approvals.length).toBeGreaterThan(0);
      const view = new EffectiveViews(snapshot, approvals, []).evaluate(workspace, userId, now);
      expect(view.entries.some((item) => item.decision.state === 'approved')).toBe(true);
      for (const evaluated of view.entries) {
        const ofServer = approvals.filter((approval) => approval.serverName === evaluated.entry.name);
        const server = serverActivationOf(snapshot, ofServer, {
          workspace,
          userId,
          serverName: evaluated.entry.name,
          now,
        });
        expect(server.decision).toEqual(evaluated.decision);
        expect(server.identity).toEqual(evaluated.identity);
      }
    });
  }

  it('names no entry for a server the view does not list', () => {
    expect(serverActivationOf(snapshot, [], { workspace, userId: null, serverName: 'mine', now })).toEqual({
      entry: null,
      decision: null,
      identity: null,
    });
  });
});
