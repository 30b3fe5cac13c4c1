import type { CatalogInputVersions, CatalogSnapshotVersion } from '@gatehouse/db';
import { catalogTagOf, chooseSnapshots, sameInputs, type ApprovedServer } from './catalog-version';

const ALICE = '0b7f2f8e-1f0e-4a8e-9d51-3c1b2a4d5e6f';
const WORKSPACE = '6f1c2f52-8d4a-4a43-9d1e-3b1f8f0f6c11';

const server = (name: string, perUser = false): ApprovedServer => ({
  name,
  source: { tier: 'managed', origin: 'managed:org' },
  definitionFingerprint: `fp-${name}`,
  perUser,
});

const snapshot = (
  serverName: string,
  principalKey: string,
  fingerprint = `fp-${serverName}`,
): CatalogSnapshotVersion => ({
  id: `${serverName}-${principalKey}-${fingerprint}`,
  version: '1',
  serverName,
  definitionFingerprint: fingerprint,
  principalKey,
});

describe('chooseSnapshots', () => {
  it("takes the principal's own discovery first, the workspace's otherwise", () => {
    const chosen = chooseSnapshots(
      [server('github'), server('jira')],
      [snapshot('github', 'workspace'), snapshot('github', ALICE), snapshot('jira', 'workspace')],
      ALICE,
    );
    expect(chosen.get('github')?.principalKey).toBe(ALICE);
    expect(chosen.get('jira')?.principalKey).toBe('workspace');
  });

  it("never describes a per-user server with the workspace's discovery, nor any server with another fingerprint", () => {
    const chosen = chooseSnapshots(
      [server('mine', true), server('github')],
      [snapshot('mine', 'workspace'), snapshot('github', 'workspace', 'fp-old')],
      ALICE,
    );
    expect(chosen.get('mine')).toBeNull();
    expect(chosen.get('github')).toBeNull();
  });

  it('reads the workspace alone for no principal', () => {
    const chosen = chooseSnapshots([server('github')], [snapshot('github', ALICE)], null);
    expect(chosen.get('github')).toBeNull();
  });
});

describe('catalogTagOf', () => {
  const versions: CatalogInputVersions = {
    workspace: 'w.1',
    member: false,
    sources: 's.1',
    variables: '',
    overlays: '',
    approvals: 'a.1.false',
    snapshots: 'c.1',
    failures: '',
  };
  const tagOf = (changes: Partial<CatalogInputVersions> = {}, principalUserId: string | null = null) =>
    catalogTagOf({
      tenantId: WORKSPACE,
      workspaceId: WORKSPACE,
      principalUserId,
      fingerprintKeyId: 'k1',
      versions: { ...versions, ...changes },
    });

  it('is a strong tag, the same for the same inputs', () => {
    expect(tagOf()).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(tagOf()).toBe(tagOf());
    expect(sameInputs(versions, { ...versions })).toBe(true);
  });

  it.each([
    ['a source written', { sources: 's.2' }],
    ['a variable set', { variables: 'v.1' }],
    ['an overlay', { overlays: 'o.1' }],
    ['an approval expiring', { approvals: 'a.1.true' }],
    ['a snapshot posted', { snapshots: 'c.2' }],
    ['a discovery failure reported', { failures: 'f.1' }],
    ['the workspace changed', { workspace: 'w.2' }],
  ])('changes with %s', (_label, changes) => {
    expect(tagOf(changes)).not.toBe(tagOf());
    expect(sameInputs(versions, { ...versions, ...changes })).toBe(false);
  });

  it('differs between principals', () => {
    expect(tagOf({}, ALICE)).not.toBe(tagOf());
  });
});
