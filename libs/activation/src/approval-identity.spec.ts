import fc from 'fast-check';
import { approvalIdentityOf } from './approval-identity';
import type { ActivationEntry } from './activation-types';
import { ALICE, BOB, WORKSPACE_VIEW, usableEntry, workspace } from './test-support/activation.fixtures';

function keyOf(
  entry: ActivationEntry,
  ws = workspace(),
  view: Parameters<typeof approvalIdentityOf>[2] = ALICE,
): string {
  const result = approvalIdentityOf(entry, ws, view);
  if (!result.ok) throw new Error(result.reason);
  return result.identity.key;
}

describe('approvalIdentityOf', () => {
  it('binds a project source to the repository and generation, and to no principal when not per user', () => {
    expect(approvalIdentityOf(usableEntry('project'), workspace(), ALICE)).toEqual({
      ok: true,
      identity: {
        key: expect.stringMatching(/^aid:v1:[0-9a-f]{64}$/),
        serverName: 'github',
        source: { tier: 'project', origin: 'project:ws-1' },
        definitionFingerprint: 'fp:v1:aaaa',
        securityIdentity: 'sid:v1:1111',
        principalUserId: null,
        repositoryIdentity: 'https://git.example.com/acme/app',
        workspaceGeneration: 3,
      },
    });
  });

  it('binds a per-user entry to the principal', () => {
    const result = approvalIdentityOf(usableEntry('user'), workspace(), BOB);
    expect(result).toMatchObject({
      ok: true,
      identity: { principalUserId: 'bob', repositoryIdentity: null },
    });
  });

  it.each(['managed', 'user'] as const)(
    'does not bind a %s source to the repository or generation',
    (tier) => {
      const result = approvalIdentityOf(usableEntry(tier), workspace(), ALICE);
      expect(result).toMatchObject({
        ok: true,
        identity: { repositoryIdentity: null, workspaceGeneration: null },
      });
      expect(
        keyOf(usableEntry(tier), workspace({ generation: 7, repositoryIdentity: 'x', id: 'ws-9' })),
      ).toBe(keyOf(usableEntry(tier)));
    },
  );

  it('refuses a per-user entry for the workspace alone', () => {
    expect(approvalIdentityOf(usableEntry('local'), workspace(), WORKSPACE_VIEW)).toEqual({
      ok: false,
      reason: 'principal_required',
    });
  });

  it.each(['user', 'local'] as const)(
    'treats a %s entry as per user even when the flag says otherwise',
    (tier) => {
      const entry = usableEntry(tier, { perUser: false });
      expect(approvalIdentityOf(entry, workspace(), WORKSPACE_VIEW)).toEqual({
        ok: false,
        reason: 'principal_required',
      });
      expect(approvalIdentityOf(entry, workspace(), BOB)).toMatchObject({
        ok: true,
        identity: { principalUserId: 'bob' },
      });
    },
  );

  it('refuses an unusable entry', () => {
    const entry: ActivationEntry = {
      usable: false,
      status: 'unresolved',
      name: 'github',
      source: { tier: 'project', origin: 'project:ws-1' },
      perUser: false,
      requiresTrustedWorkspace: false,
    };
    expect(approvalIdentityOf(entry, workspace(), ALICE)).toEqual({ ok: false, reason: 'entry_unusable' });
  });

  it('gives one key per identity: the same inputs, the same key; any field changed, another key', () => {
    const base = usableEntry('local');
    const variants = [
      keyOf(base),
      keyOf(usableEntry('local', { name: 'gitlab' })),
      keyOf(usableEntry('local', { source: { tier: 'local', origin: 'local:ws-1:bob' } })),
      keyOf(usableEntry('local', { fingerprint: 'fp:v1:bbbb' })),
      keyOf(usableEntry('local', { securityIdentity: 'sid:v1:2222' })),
      keyOf(base, workspace(), BOB),
      keyOf(base, workspace({ repositoryIdentity: 'https://git.example.com/acme/fork' })),
      keyOf(base, workspace({ generation: 4 })),
    ];
    expect(keyOf(base)).toBe(variants[0]);
    expect(new Set(variants).size).toBe(variants.length);
  });

  it('keeps text from shifting between adjacent fields', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (a, b, c, d) => {
        fc.pre(a !== c || b !== d);
        const one = usableEntry('managed', { fingerprint: a, securityIdentity: b });
        const two = usableEntry('managed', { fingerprint: c, securityIdentity: d });
        expect(keyOf(one)).not.toBe(keyOf(two));
      }),
    );
    expect(keyOf(usableEntry('managed', { fingerprint: 'ab', securityIdentity: 'c' }))).not.toBe(
      keyOf(usableEntry('managed', { fingerprint: 'a', securityIdentity: 'bc' })),
    );
  });

  it('does not take the workspace id into the key (approvals bind to repository and generation)', () => {
    expect(keyOf(usableEntry('project'), workspace({ id: 'ws-2' }))).toBe(keyOf(usableEntry('project')));
  });
});
