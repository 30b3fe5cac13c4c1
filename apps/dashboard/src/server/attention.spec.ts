import type { TokenView } from '../views/api-views';
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
});
