import type { RevocationAnnouncement } from '@gatehouse/coordination';
import { catalogTopicsOf } from './catalog-change-feed';

const TENANT = '5a0f2c4e-7b1d-4c3e-8f2a-9d6b1e0c3a7f';
const WORKSPACE = '6F1C2F52-8D4A-4A43-9D1E-3B1F8F0F6C11';

const event = (tenantId: string | null, subject: unknown): RevocationAnnouncement => ({
  platform: {
    seq: 1,
    ledger: '0'.repeat(32),
    tenantId,
    kind: 'definition_changed',
    subject,
    occurredAt: '2026-12-01T10:00:00.000Z',
  },
  tenant: null,
});

describe('catalogTopicsOf', () => {
  it("names the workspace's catalogs for an event naming a workspace, the tenant's for one naming none", () => {
    expect(
      catalogTopicsOf([
        event(TENANT, { workspaceId: WORKSPACE.toLowerCase(), serverName: 'github' }),
        event(TENANT, { workspaceId: WORKSPACE.toLowerCase() }),
        event(TENANT, {}),
      ]),
    ).toEqual([`catalog:${WORKSPACE.toLowerCase()}`, `catalog-tenant:${TENANT}`]);
  });

  it("reads a subject it cannot read as concerning the whole tenant, and a platform event as none's", () => {
    expect(catalogTopicsOf([event(TENANT, { workspaceId: 'not-a-uuid' })])).toEqual([
      `catalog-tenant:${TENANT}`,
    ]);
    expect(catalogTopicsOf([event(null, { tokenIds: [] })])).toEqual([]);
  });
});
