import { workspaceCatalog } from './workspace-catalog.schema';

const source = { tier: 'managed', origin: 'managed:org-policy' } as const;
const discovered = {
  name: 'github',
  state: 'discovered',
  source,
  definitionFingerprint: 'sha256:abc',
  discoveredFor: 'workspace',
  identity: { server: 'github', protocolVersion: '2025-11-25', serverVersion: '1.2.3' },
  complete: true,
  stale: false,
  fetchedAt: '2026-12-01T10:00:00.000Z',
};
const pending = {
  name: 'jira',
  state: 'pending_discovery',
  source,
  definitionFingerprint: 'sha256:def',
  discoveredFor: null,
  identity: null,
  complete: false,
  stale: false,
  fetchedAt: null,
};
const catalog = {
  v: 1,
  workspaceId: '6f1c2f52-8d4a-4a43-9d1e-3b1f8f0f6c11',
  principalUserId: null,
  complete: false,
  stale: false,
  servers: [discovered, pending],
  document: { v: 1, complete: true, stale: false, servers: [], diagnostics: [] },
};

describe('workspaceCatalog', () => {
  it('parses a version-1 catalog with a discovered and a pending server', () => {
    expect(workspaceCatalog.safeParse(catalog).success).toBe(true);
  });

  it.each([
    ['an unknown version', { ...catalog, v: 2 }],
    ['an unknown member', { ...catalog, extra: true }],
    ['an unknown server state', { ...catalog, servers: [{ ...pending, state: 'refreshing' }] }],
    ['a server with an unknown member', { ...catalog, servers: [{ ...discovered, url: 'https://x' }] }],
    ['a document that is not a catalog document', { ...catalog, document: { v: 1 } }],
  ])('refuses %s', (_label, value) => {
    expect(workspaceCatalog.safeParse(value).success).toBe(false);
  });
});
