import type { TokenView, WorkspaceView } from '../views/api-views';
import type { ApprovalRequestView } from '../views/approval-views';
import { collectAttention } from './attention';

const now = new Date('2026-06-01T00:00:00Z');

function token(overrides: Partial<TokenView>): TokenView {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'ci',
    kind: 'user',
    prefix: 'ghu_abcdef',
    scopes: [],
    userId: null,
    workspaceIds: [],
    pool: null,
    createdAt: '2026-01-01T00:00:00Z',
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null,
    ...overrides,
  };
}

describe('collectAttention', () => {
  it('is empty when nothing needs attention', () => {
    expect(collectAttention({ now, tokens: [token({})], workspaces: [] })).toEqual([]);
  });

  it('names a broken audit chain with its first bad row', () => {
    const items = collectAttention({
      now,
      verification: {
        ok: false,
        checkedRows: 9,
        headSeq: 9,
        headHash: 'a'.repeat(64),
        firstBadSeq: 4,
        problem: 'hash_mismatch',
      },
    });
    expect(items).toHaveLength(1);
    expect(items[0]?.detail).toContain('#4');
    expect(items[0]?.detail).toContain('hash_mismatch');
  });

  it('lists live tokens expiring within a week, not revoked or expired ones', () => {
    const items = collectAttention({
      now,
      tokens: [
        token({ name: 'soon', expiresAt: '2026-06-03T00:00:00Z' }),
        token({ name: 'later', expiresAt: '2026-07-01T00:00:00Z' }),
        token({ name: 'gone', expiresAt: '2026-05-30T00:00:00Z' }),
        token({ name: 'revoked', expiresAt: '2026-06-02T00:00:00Z', revokedAt: '2026-05-01T00:00:00Z' }),
      ],
    });
    expect(items.map((item) => item.detail)).toEqual(['soon']);
  });

  it('counts open approval requests and names their servers once each', () => {
    const request = (serverName: string): ApprovalRequestView => ({
      id: '00000000-0000-4000-8000-000000000002',
      workspaceId: '00000000-0000-4000-8000-000000000003',
      status: 'open',
      trigger: 'source_written',
      identity: {
        key: `aid:v1:${'b'.repeat(64)}`,
        serverName,
        source: { tier: 'project', origin: 'project:w' },
        definitionFingerprint: 'sha256:abc',
        securityIdentity: 'sid:v1:abc',
        principalUserId: null,
        repositoryIdentity: null,
        workspaceGeneration: 1,
      },
      projection: {},
      previousApprovalId: null,
      changes: [],
      authorUserIds: [],
      openedAt: '2026-05-01T00:00:00Z',
      closedAt: null,
      closedBy: null,
      approvalId: null,
    });
    const items = collectAttention({
      now,
      openRequests: { items: [request('docs'), request('docs'), request('deploy-tools')], more: true },
    });
    expect(items).toHaveLength(1);
    expect(items[0]?.title).toBe('3+ approval requests wait for review');
    expect(items[0]?.detail).toBe('Servers: docs, deploy-tools. They do not run until approved.');
    expect(items[0]?.href).toBe('/approvals');
    expect(collectAttention({ now, openRequests: { items: [request('docs')], more: false } })[0]?.title).toBe(
      '1 approval request waits for review',
    );
    expect(collectAttention({ now, openRequests: { items: [], more: false } })).toEqual([]);
  });

  it('names each approved server whose catalog is in trouble, linking to its catalog', () => {
    const workspace = { id: '00000000-0000-4000-8000-000000000009', name: 'editor-space' } as WorkspaceView;
    const items = collectAttention({
      now,
      troubledServers: [
        {
          workspace,
          servers: [
            { serverName: 'everything', troubles: ['stale', 'incomplete'] },
            { serverName: 'docs', troubles: ['pending_discovery'] },
            {
              serverName: 'legacy',
              troubles: ['discovery_failed'],
              discoveryFailure: {
                failureClass: 'protocol',
                reason: 'protocol_version_refused',
                detail: 'the server refused every protocol version we speak',
                at: '2026-12-02T12:00:00.000Z',
              },
            },
          ],
        },
      ],
    });
    expect(items.map((item) => [item.tone, item.title, item.href])).toEqual([
      [
        'warning',
        'everything in editor-space: stale, incomplete',
        `/servers/${workspace.id}/server/everything?view=principal#server-catalog`,
      ],
      [
        'info',
        'docs in editor-space: not discovered yet',
        `/servers/${workspace.id}/server/docs?view=principal#server-catalog`,
      ],
      [
        'warning',
        'legacy in editor-space: discovery failed',
        `/servers/${workspace.id}/server/legacy?view=principal#server-catalog`,
      ],
    ]);
    expect(items[0]?.detail).toBe('The last refresh failed: agents get the last good listing.');
    expect(items[2]?.detail).toBe(
      'Why: protocol_version_refused: the server refused every protocol version we speak.',
    );
  });
});
