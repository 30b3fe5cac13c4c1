import fc from 'fast-check';
import { decideActivation } from './activation-decider';
import type { ActivationEntry, SourceTier, UnusableEntry } from './activation-types';
import { SOURCE_TIERS } from './activation-types';
import { matchesExactly } from './approval-match';
import { approvalIdentityOf } from './approval-identity';
import type { ApprovalRecord } from './approval-record';
import {
  ALICE,
  BOB,
  NOW,
  WORKSPACE_VIEW,
  approvalFor,
  at,
  usableEntry,
  workspace,
} from './test-support/activation.fixtures';

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const viewFor = (entry: ActivationEntry) => (entry.perUser ? ALICE : WORKSPACE_VIEW);

describe('decideActivation', () => {
  describe('exact match', () => {
    it.each(SOURCE_TIERS)('approves an exact, live approval of a %s entry', (tier) => {
      const entry = usableEntry(tier);
      const ws = workspace();
      const approval = approvalFor(entry, ws, viewFor(entry), { expiresAt: at(120) });
      expect(decideActivation(entry, ws, viewFor(entry), [approval], NOW)).toEqual({
        state: 'approved',
        reasons: ['approval_matches'],
        matchedApprovalId: approval.id,
        expiresAt: at(120),
      });
    });

    it('is pending with no admission decision at all (fail closed)', () => {
      expect(decideActivation(usableEntry('managed'), workspace(), WORKSPACE_VIEW, [], NOW)).toEqual({
        state: 'pending',
        reasons: ['no_admission_decision'],
      });
    });

    it('ignores approvals of another server name', () => {
      const entry = usableEntry('managed');
      const other = approvalFor(usableEntry('managed', { name: 'gitlab' }), workspace(), WORKSPACE_VIEW);
      expect(decideActivation(entry, workspace(), WORKSPACE_VIEW, [other], NOW).state).toBe('pending');
    });

    it('is pending for an unusable entry (unset variable), whatever approvals exist', () => {
      const usable = usableEntry('project');
      const approval = approvalFor(usable, workspace(), WORKSPACE_VIEW);
      const unusable: UnusableEntry = {
        usable: false,
        status: 'unresolved',
        name: usable.name,
        source: usable.source,
        perUser: false,
        requiresTrustedWorkspace: false,
      };
      expect(decideActivation(unusable, workspace(), WORKSPACE_VIEW, [approval], NOW)).toEqual({
        state: 'pending',
        reasons: ['entry_unusable'],
      });
    });
  });

  describe('untrusted workspace', () => {
    it.each(['project', 'local', 'plugin'] as const)(
      'refuses a %s source even with an exact approval',
      (tier) => {
        const entry = usableEntry(tier);
        const ws = workspace({ trusted: false });
        const approval = approvalFor(entry, ws, viewFor(entry));
        expect(decideActivation(entry, ws, viewFor(entry), [approval], NOW)).toEqual({
          state: 'untrusted',
          reasons: ['untrusted_workspace_source'],
        });
      },
    );

    it.each(['managed', 'user'] as const)(
      'still approves a %s source that does not require trust',
      (tier) => {
        const entry = usableEntry(tier);
        const ws = workspace({ trusted: false });
        const approval = approvalFor(entry, ws, viewFor(entry));
        expect(decideActivation(entry, ws, viewFor(entry), [approval], NOW).state).toBe('approved');
      },
    );

    it.each(SOURCE_TIERS)('refuses a %s entry that requires a trusted workspace', (tier) => {
      const entry = usableEntry(tier, { requiresTrustedWorkspace: true });
      const ws = workspace({ trusted: false });
      const decision = decideActivation(
        entry,
        ws,
        viewFor(entry),
        [approvalFor(entry, ws, viewFor(entry))],
        NOW,
      );
      expect(decision.state).toBe('untrusted');
      expect(decision.reasons).toContain('requires_trusted_workspace');
    });

    it('names both reasons when both apply', () => {
      const entry = usableEntry('plugin', { requiresTrustedWorkspace: true });
      expect(decideActivation(entry, workspace({ trusted: false }), WORKSPACE_VIEW, [], NOW).reasons).toEqual(
        ['untrusted_workspace_source', 'requires_trusted_workspace'],
      );
    });

    it('approves a trust-requiring entry once the workspace is trusted', () => {
      const entry = usableEntry('project', { requiresTrustedWorkspace: true });
      const ws = workspace();
      expect(
        decideActivation(entry, ws, WORKSPACE_VIEW, [approvalFor(entry, ws, WORKSPACE_VIEW)], NOW).state,
      ).toBe('approved');
    });

    it('wins over a revocation or a denial, whatever the records say', () => {
      fc.assert(
        fc.property(
          fc.constantFrom<SourceTier>('project', 'local', 'plugin'),
          fc.array(
            fc.record({
              decision: fc.constantFrom<'approved' | 'denied'>('approved', 'denied'),
              revoked: fc.boolean(),
              expired: fc.boolean(),
            }),
            { maxLength: 5 },
          ),
          (tier, shapes) => {
            const entry = usableEntry(tier);
            const ws = workspace({ trusted: false });
            const records = shapes.map((shape) =>
              approvalFor(entry, ws, viewFor(entry), {
                decision: shape.decision,
                revokedAt: shape.revoked ? at(10) : null,
                expiresAt: shape.expired ? at(30) : null,
              }),
            );
            expect(decideActivation(entry, ws, viewFor(entry), records, NOW).state).toBe('untrusted');
          },
        ),
      );
    });
  });

  describe('stale', () => {
    it('is stale on a fingerprint change, naming the old approval', () => {
      const ws = workspace();
      const approval = approvalFor(usableEntry('project'), ws, WORKSPACE_VIEW);
      const changed = usableEntry('project', { fingerprint: 'fp:v1:bbbb' });
      expect(decideActivation(changed, ws, WORKSPACE_VIEW, [approval], NOW)).toEqual({
        state: 'stale',
        reasons: ['approval_stale'],
        matchedApprovalId: approval.id,
        staleBecause: ['fingerprint'],
      });
    });

    it('is stale on a security identity change', () => {
      const ws = workspace();
      const approval = approvalFor(usableEntry('managed'), ws, WORKSPACE_VIEW);
      const changed = usableEntry('managed', { securityIdentity: 'sid:v1:2222' });
      const decision = decideActivation(changed, ws, WORKSPACE_VIEW, [approval], NOW);
      expect(decision).toMatchObject({ state: 'stale', staleBecause: ['identity'] });
    });

    it.each(['project', 'local', 'plugin'] as const)(
      'is stale on a generation bump for a %s source',
      (tier) => {
        const entry = usableEntry(tier);
        const approval = approvalFor(entry, workspace({ generation: 3 }), viewFor(entry));
        const decision = decideActivation(
          entry,
          workspace({ generation: 4 }),
          viewFor(entry),
          [approval],
          NOW,
        );
        expect(decision).toMatchObject({
          state: 'stale',
          staleBecause: ['generation'],
          matchedApprovalId: approval.id,
        });
      },
    );

    it.each(['project', 'local', 'plugin'] as const)(
      'is stale on a repository change for a %s source',
      (tier) => {
        const entry = usableEntry(tier);
        const approval = approvalFor(entry, workspace(), viewFor(entry));
        const moved = workspace({ repositoryIdentity: 'https://git.example.com/acme/fork' });
        expect(decideActivation(entry, moved, viewFor(entry), [approval], NOW)).toMatchObject({
          state: 'stale',
          staleBecause: ['repository'],
        });
      },
    );

    it.each(['managed', 'user'] as const)(
      'does not bind a %s source to the repository or generation',
      (tier) => {
        const entry = usableEntry(tier);
        const approval = approvalFor(entry, workspace(), viewFor(entry));
        const elsewhere = workspace({
          id: 'ws-2',
          repositoryIdentity: 'https://git.example.com/x/y',
          generation: 9,
        });
        expect(decideActivation(entry, elsewhere, viewFor(entry), [approval], NOW).state).toBe('approved');
      },
    );

    it('lists every field that changed', () => {
      const approval = approvalFor(usableEntry('project'), workspace(), WORKSPACE_VIEW);
      const changed = usableEntry('project', { fingerprint: 'fp:v1:cccc', securityIdentity: 'sid:v1:3333' });
      const bumped = workspace({ generation: 4, repositoryIdentity: 'https://git.example.com/acme/other' });
      expect(decideActivation(changed, bumped, WORKSPACE_VIEW, [approval], NOW)).toMatchObject({
        state: 'stale',
        staleBecause: ['fingerprint', 'identity', 'repository', 'generation'],
      });
    });

    it('is stale with `source` when another source now defines the name (never approved by the old one)', () => {
      const ws = workspace();
      const approval = approvalFor(usableEntry('managed'), ws, WORKSPACE_VIEW);
      const shadowing = usableEntry('project');
      expect(decideActivation(shadowing, ws, WORKSPACE_VIEW, [approval], NOW)).toMatchObject({
        state: 'stale',
        staleBecause: ['source', 'repository', 'generation'],
      });
    });

    it('prefers the same source, then the latest approval, as the one the server changed from', () => {
      const ws = workspace();
      const otherSource = approvalFor(usableEntry('managed'), ws, WORKSPACE_VIEW, { decidedAt: at(30) });
      const older = approvalFor(usableEntry('project', { fingerprint: 'fp:v1:old1' }), ws, WORKSPACE_VIEW, {
        decidedAt: at(5),
      });
      const newer = approvalFor(usableEntry('project', { fingerprint: 'fp:v1:old2' }), ws, WORKSPACE_VIEW, {
        decidedAt: at(10),
      });
      const entry = usableEntry('project', { fingerprint: 'fp:v1:now' });
      expect(decideActivation(entry, ws, WORKSPACE_VIEW, [otherSource, older, newer], NOW)).toMatchObject({
        state: 'stale',
        matchedApprovalId: newer.id,
      });
    });

    it('a revoked or expired approval of the old definition is gone, not stale', () => {
      const ws = workspace();
      const old = usableEntry('project');
      const records = [
        approvalFor(old, ws, WORKSPACE_VIEW, { revokedAt: at(5) }),
        approvalFor(old, ws, WORKSPACE_VIEW, { expiresAt: at(30) }),
        approvalFor(old, ws, WORKSPACE_VIEW, { decision: 'denied' }),
      ];
      const changed = usableEntry('project', { fingerprint: 'fp:v1:bbbb' });
      expect(decideActivation(changed, ws, WORKSPACE_VIEW, records, NOW)).toEqual({
        state: 'pending',
        reasons: ['no_admission_decision'],
      });
    });
  });

  describe('revocation and denial', () => {
    it('a revoked approval is revoked, not approved', () => {
      const entry = usableEntry('managed');
      const approval = approvalFor(entry, workspace(), WORKSPACE_VIEW, { revokedAt: at(5) });
      expect(decideActivation(entry, workspace(), WORKSPACE_VIEW, [approval], NOW)).toEqual({
        state: 'revoked',
        reasons: ['approval_revoked'],
        matchedApprovalId: approval.id,
      });
    });

    it('revoked wins over an approval given before the revocation', () => {
      const entry = usableEntry('project');
      const ws = workspace();
      const live = approvalFor(entry, ws, WORKSPACE_VIEW, { decidedAt: at(10) });
      const revoked = approvalFor(entry, ws, WORKSPACE_VIEW, { decidedAt: at(0), revokedAt: at(20) });
      for (const records of [
        [live, revoked],
        [revoked, live],
      ]) {
        expect(decideActivation(entry, ws, WORKSPACE_VIEW, records, NOW)).toMatchObject({
          state: 'revoked',
          matchedApprovalId: revoked.id,
        });
      }
    });

    it('revoked wins over an approval given at the same instant', () => {
      const entry = usableEntry('managed');
      const ws = workspace();
      const live = approvalFor(entry, ws, WORKSPACE_VIEW, { decidedAt: at(20) });
      const revoked = approvalFor(entry, ws, WORKSPACE_VIEW, { decidedAt: at(0), revokedAt: at(20) });
      expect(decideActivation(entry, ws, WORKSPACE_VIEW, [live, revoked], NOW).state).toBe('revoked');
    });

    it('a new approval after the revocation approves again', () => {
      const entry = usableEntry('managed');
      const ws = workspace();
      const revoked = approvalFor(entry, ws, WORKSPACE_VIEW, { decidedAt: at(0), revokedAt: at(20) });
      const again = approvalFor(entry, ws, WORKSPACE_VIEW, { decidedAt: at(30) });
      expect(decideActivation(entry, ws, WORKSPACE_VIEW, [revoked, again], NOW)).toMatchObject({
        state: 'approved',
        matchedApprovalId: again.id,
      });
    });

    it('a denial of the exact identity is denied', () => {
      const entry = usableEntry('plugin');
      const denial = approvalFor(entry, workspace(), WORKSPACE_VIEW, { decision: 'denied' });
      expect(decideActivation(entry, workspace(), WORKSPACE_VIEW, [denial], NOW)).toEqual({
        state: 'denied',
        reasons: ['denial_matches'],
        matchedApprovalId: denial.id,
      });
    });

    it('a denial later than an approval wins, and an approval later than a denial wins', () => {
      const entry = usableEntry('managed');
      const ws = workspace();
      const approved = approvalFor(entry, ws, WORKSPACE_VIEW, { decidedAt: at(10) });
      const laterDenial = approvalFor(entry, ws, WORKSPACE_VIEW, { decision: 'denied', decidedAt: at(20) });
      expect(decideActivation(entry, ws, WORKSPACE_VIEW, [approved, laterDenial], NOW).state).toBe('denied');
      const earlierDenial = approvalFor(entry, ws, WORKSPACE_VIEW, { decision: 'denied', decidedAt: at(5) });
      expect(decideActivation(entry, ws, WORKSPACE_VIEW, [earlierDenial, approved], NOW).state).toBe(
        'approved',
      );
    });

    it('a denial of another fingerprint does not deny the new one', () => {
      const ws = workspace();
      const denial = approvalFor(usableEntry('project'), ws, WORKSPACE_VIEW, { decision: 'denied' });
      const changed = usableEntry('project', { fingerprint: 'fp:v1:bbbb' });
      expect(decideActivation(changed, ws, WORKSPACE_VIEW, [denial], NOW).state).toBe('pending');
    });

    it('a revoked denial is lifted (pending), never an approval', () => {
      const entry = usableEntry('managed');
      const denial = approvalFor(entry, workspace(), WORKSPACE_VIEW, {
        decision: 'denied',
        revokedAt: at(5),
      });
      expect(decideActivation(entry, workspace(), WORKSPACE_VIEW, [denial], NOW)).toEqual({
        state: 'pending',
        reasons: ['no_admission_decision'],
      });
    });
  });

  describe('expiry', () => {
    it('an expired approval does not count (pending, approval_expired)', () => {
      const entry = usableEntry('managed');
      const expired = approvalFor(entry, workspace(), WORKSPACE_VIEW, { expiresAt: at(30) });
      expect(decideActivation(entry, workspace(), WORKSPACE_VIEW, [expired], NOW)).toEqual({
        state: 'pending',
        reasons: ['approval_expired'],
      });
    });

    it('expires at the instant given, not after it', () => {
      const entry = usableEntry('managed');
      const record = approvalFor(entry, workspace(), WORKSPACE_VIEW, { expiresAt: NOW });
      expect(decideActivation(entry, workspace(), WORKSPACE_VIEW, [record], NOW).state).toBe('pending');
      expect(decideActivation(entry, workspace(), WORKSPACE_VIEW, [record], at(59)).state).toBe('approved');
    });

    it('with the exact approval expired, an older approval of what the server was makes it stale', () => {
      const ws = workspace();
      const old = approvalFor(usableEntry('project', { fingerprint: 'fp:v1:old' }), ws, WORKSPACE_VIEW);
      const entry = usableEntry('project');
      const expired = approvalFor(entry, ws, WORKSPACE_VIEW, { decidedAt: at(10), expiresAt: at(30) });
      expect(decideActivation(entry, ws, WORKSPACE_VIEW, [old, expired], NOW)).toMatchObject({
        state: 'stale',
        matchedApprovalId: old.id,
        staleBecause: ['fingerprint'],
      });
    });

    it('an expired latest approval is not rescued by an older one of the same identity', () => {
      const entry = usableEntry('managed');
      const ws = workspace();
      const older = approvalFor(entry, ws, WORKSPACE_VIEW, { decidedAt: at(0) });
      const latest = approvalFor(entry, ws, WORKSPACE_VIEW, { decidedAt: at(10), expiresAt: at(30) });
      expect(decideActivation(entry, ws, WORKSPACE_VIEW, [older, latest], NOW).state).toBe('pending');
    });
  });

  describe('principals', () => {
    it("user A's approval of a per-user entry never approves user B", () => {
      const entry = usableEntry('user');
      const ws = workspace();
      const forAlice = approvalFor(entry, ws, ALICE);
      expect(decideActivation(entry, ws, ALICE, [forAlice], NOW).state).toBe('approved');
      expect(decideActivation(entry, ws, BOB, [forAlice], NOW)).toEqual({
        state: 'pending',
        reasons: ['no_admission_decision'],
      });
    });

    it('a per-user entry is not approvable for the workspace alone, whoever holds approvals', () => {
      const entry = usableEntry('project', { perUser: true });
      const ws = workspace();
      const records = [approvalFor(entry, ws, ALICE), approvalFor(entry, ws, BOB)];
      expect(decideActivation(entry, ws, WORKSPACE_VIEW, records, NOW)).toEqual({
        state: 'pending',
        reasons: ['principal_required'],
      });
    });

    it('a workspace-wide approval does not approve a per-user entry for anyone', () => {
      const ws = workspace();
      const workspaceWide = approvalFor(usableEntry('project'), ws, WORKSPACE_VIEW);
      const perUser = usableEntry('project', { perUser: true });
      expect(decideActivation(perUser, ws, ALICE, [workspaceWide], NOW)).toEqual({
        state: 'pending',
        reasons: ['no_admission_decision'],
      });
    });

    it('a per-user approval does not approve an entry that is not per user', () => {
      const ws = workspace();
      const forAlice = approvalFor(usableEntry('project', { perUser: true }), ws, ALICE);
      const shared = usableEntry('project');
      expect(decideActivation(shared, ws, ALICE, [forAlice], NOW).state).toBe('pending');
      expect(decideActivation(shared, ws, WORKSPACE_VIEW, [forAlice], NOW).state).toBe('pending');
    });

    it('an entry that is not per user is approved once for the workspace and every principal', () => {
      const entry = usableEntry('project');
      const ws = workspace();
      const approval = approvalFor(entry, ws, WORKSPACE_VIEW);
      for (const view of [WORKSPACE_VIEW, ALICE, BOB]) {
        expect(decideActivation(entry, ws, view, [approval], NOW).state).toBe('approved');
      }
    });
  });

  describe('properties', () => {
    const tier = fc.constantFrom(...SOURCE_TIERS);
    const keep = fc.constantFrom(true, true, false);
    // Records derived from the entry's exact identity, each field kept or changed, so that exact matches, near
    // misses and other subjects all occur.
    const recordShape = fc.record({
      keepName: fc.constantFrom(true, true, true, false),
      keepSource: keep,
      keepFingerprint: keep,
      keepIdentity: keep,
      principal: fc.constantFrom<'exact' | 'none' | 'bob'>('exact', 'exact', 'none', 'bob'),
      keepRepository: keep,
      keepGeneration: keep,
      decision: fc.constantFrom<'approved' | 'denied'>('approved', 'approved', 'denied'),
      decidedAt: fc.integer({ min: -10, max: 50 }),
      expiresAt: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null, freq: 2 }),
      revokedAt: fc.option(fc.integer({ min: 0, max: 50 }), { nil: null, freq: 2 }),
    });
    type Shape = ValueOf<typeof recordShape>;
    const scenario = fc.record({
      tier,
      perUser: fc.boolean(),
      view: fc.constantFrom(WORKSPACE_VIEW, ALICE, BOB),
      trusted: fc.constantFrom(true, true, false),
      records: fc.array(recordShape, { maxLength: 6 }),
    });
    const build = (s: ValueOf<typeof scenario>) => {
      const entry = usableEntry(s.tier, { perUser: s.perUser });
      const ws = workspace({ trusted: s.trusted });
      const exact = approvalIdentityOf(entry, ws, s.view);
      const principal = exact.ok ? exact.identity.principalUserId : null;
      const toRecord = (shape: Shape, index: number): ApprovalRecord =>
        approvalFor(entry, ws, ALICE, {
          id: `r${index}`,
          serverName: shape.keepName ? entry.name : 'gitlab',
          source: shape.keepSource ? entry.source : { tier: 'plugin', origin: 'plugin:other' },
          definitionFingerprint: shape.keepFingerprint ? entry.fingerprint : 'fp:v1:changed',
          securityIdentity: shape.keepIdentity ? entry.securityIdentity : 'sid:v1:changed',
          principalUserId: shape.principal === 'exact' ? principal : shape.principal === 'bob' ? 'bob' : null,
          repositoryIdentity:
            shape.keepRepository && exact.ok ? exact.identity.repositoryIdentity : 'https://other',
          workspaceGeneration: shape.keepGeneration && exact.ok ? exact.identity.workspaceGeneration : 99,
          decision: shape.decision,
          decidedAt: at(shape.decidedAt),
          expiresAt: shape.expiresAt === null ? null : at(shape.expiresAt),
          revokedAt: shape.revokedAt === null ? null : at(shape.revokedAt),
        });
      return { entry, ws, records: s.records.map(toRecord) };
    };

    it('the scenarios reach every state (so the properties below are not vacuous)', () => {
      const seen = new Set(
        fc.sample(scenario, { numRuns: 2000, seed: 42 }).map((s) => {
          const { entry, ws, records } = build(s);
          return decideActivation(entry, ws, s.view, records, NOW).state;
        }),
      );
      expect([...seen].sort()).toEqual(['approved', 'denied', 'pending', 'revoked', 'stale', 'untrusted']);
    });

    it('approves only on a live, unrevoked approval of exactly this identity', () => {
      fc.assert(
        fc.property(scenario, (s) => {
          const { entry, ws, records } = build(s);
          const decision = decideActivation(entry, ws, s.view, records, NOW);
          if (decision.state !== 'approved') return;
          const identity = approvalIdentityOf(entry, ws, s.view);
          if (!identity.ok) throw new Error('approved without an approvable identity');
          const matched = records.find((record) => record.id === decision.matchedApprovalId);
          expect(matched).toBeDefined();
          if (matched === undefined) return;
          expect(matchesExactly(identity.identity, matched)).toBe(true);
          expect(matched.decision).toBe('approved');
          expect(matched.revokedAt).toBeNull();
          expect(matched.expiresAt === null || matched.expiresAt > NOW).toBe(true);
          // No revocation or denial of the exact identity came at or after it.
          for (const record of records.filter((r) => matchesExactly(identity.identity, r))) {
            if (record.revokedAt !== null) expect(record.revokedAt < matched.decidedAt).toBe(true);
            if (record.decision === 'denied' && record.revokedAt === null) {
              expect(record.decidedAt <= matched.decidedAt).toBe(true);
            }
          }
        }),
      );
    });

    it('does not depend on the order of the records', () => {
      fc.assert(
        fc.property(
          scenario.chain((s) =>
            fc.tuple(fc.constant(s), fc.shuffledSubarray(build(s).records, { minLength: s.records.length })),
          ),
          ([s, shuffled]) => {
            const { entry, ws, records } = build(s);
            expect(decideActivation(entry, ws, s.view, shuffled, NOW)).toEqual(
              decideActivation(entry, ws, s.view, records, NOW),
            );
          },
        ),
      );
    });

    it('changing any one bound field of an exact approval makes it stale with exactly that field', () => {
      const mutation = fc.constantFrom('fingerprint', 'identity', 'repository', 'generation', 'source');
      fc.assert(
        fc.property(fc.constantFrom<SourceTier>('project', 'local', 'plugin'), mutation, (t, changed) => {
          const entry = usableEntry(t);
          const ws = workspace();
          const view = viewFor(entry);
          const base = approvalFor(entry, ws, view);
          const record: ApprovalRecord = {
            ...base,
            ...(changed === 'fingerprint' ? { definitionFingerprint: 'fp:changed' } : {}),
            ...(changed === 'identity' ? { securityIdentity: 'sid:changed' } : {}),
            ...(changed === 'repository' ? { repositoryIdentity: 'https://changed' } : {}),
            ...(changed === 'generation' ? { workspaceGeneration: 99 } : {}),
            ...(changed === 'source' ? { source: { tier: t, origin: `${t}:changed` } } : {}),
          };
          expect(decideActivation(entry, ws, view, [record], NOW)).toEqual({
            state: 'stale',
            reasons: ['approval_stale'],
            matchedApprovalId: record.id,
            staleBecause: [changed],
          });
        }),
      );
    });

    it('an untrusted workspace never approves a project, local or plugin source', () => {
      fc.assert(
        fc.property(scenario, (s) => {
          const { entry, ws, records } = build({ ...s, trusted: false });
          const decision = decideActivation(entry, ws, s.view, records, NOW);
          if (['project', 'local', 'plugin'].includes(s.tier)) expect(decision.state).toBe('untrusted');
          else expect(decision.state).not.toBe('untrusted');
        }),
      );
    });
  });
});
