import { canDecide, type Decider, type DecisionRequest } from './decision-authority.guard';

const request = (overrides: Partial<DecisionRequest> = {}): DecisionRequest => ({
  verb: 'approve',
  source: { tier: 'project', origin: 'project:ws-1' },
  authorUserIds: ['dave'],
  seenFingerprint: 'fp:v1:aaaa',
  currentFingerprint: 'fp:v1:aaaa',
  seenIdentity: 'sid:v1:1111',
  currentIdentity: 'sid:v1:1111',
  ...overrides,
});

const APPROVER_SCOPES = ['tenant:read', 'audit:read', 'approvals:decide', 'catalog:read'];

const human = (overrides: Partial<Extract<Decider, { userId: string }>> = {}): Decider => ({
  kind: 'session',
  userId: 'carol',
  role: 'approver',
  scopes: APPROVER_SCOPES,
  ...overrides,
});

describe('canDecide', () => {
  it.each(['owner', 'admin', 'approver'] as const)(
    'lets a %s decide through a session or a user token',
    (role) => {
      for (const kind of ['session', 'user_token'] as const) {
        expect(
          canDecide({
            decider: { kind, userId: 'carol', role, scopes: APPROVER_SCOPES },
            request: request(),
            fourEyes: true,
          }),
        ).toEqual({
          ok: true,
          deciderUserId: 'carol',
        });
      }
    },
  );

  it.each(['agent_token', 'worker_token', 'gateway_token'] as const)(
    'refuses a %s even when it (wrongly) carries approvals:decide',
    (kind) => {
      for (const verb of ['approve', 'deny'] as const) {
        expect(
          canDecide({
            decider: { kind, scopes: ['approvals:decide'] },
            request: request({ verb }),
            fourEyes: false,
          }),
        ).toEqual({
          ok: false,
          reason: 'not_a_human_principal',
        });
      }
    },
  );

  it.each(['project', 'plugin'] as const)('a %s source can never approve itself', (tier) => {
    const source = { tier, origin: `${tier}:x` };
    expect(
      canDecide({
        decider: { kind: 'definition_source', source },
        request: request({ source }),
        fourEyes: false,
      }),
    ).toEqual({
      ok: false,
      reason: 'source_cannot_approve_itself',
    });
  });

  it('no source decides for another either: only humans decide', () => {
    const decider: Decider = {
      kind: 'definition_source',
      source: { tier: 'managed', origin: 'managed:org-policy' },
    };
    expect(canDecide({ decider, request: request(), fourEyes: false })).toEqual({
      ok: false,
      reason: 'not_a_human_principal',
    });
  });

  it('refuses a human without approvals:decide, naming the scope', () => {
    const member = human({ role: 'member', scopes: ['tenant:read', 'catalog:read'] });
    expect(canDecide({ decider: member, request: request(), fourEyes: false })).toEqual({
      ok: false,
      reason: 'missing_scope',
      scope: 'approvals:decide',
    });
  });

  it('refuses a member whose user token still carries approvals:decide from an earlier role', () => {
    const demoted: Decider = { kind: 'user_token', userId: 'carol', role: 'member', scopes: APPROVER_SCOPES };
    expect(canDecide({ decider: demoted, request: request(), fourEyes: false })).toEqual({
      ok: false,
      reason: 'role_cannot_decide',
    });
  });

  describe('four-eyes', () => {
    const authored = request({ authorUserIds: ['erin', 'carol'] });

    it('the author of the change cannot approve it', () => {
      expect(canDecide({ decider: human(), request: authored, fourEyes: true })).toEqual({
        ok: false,
        reason: 'author_cannot_approve',
      });
      expect(
        canDecide({ decider: human({ kind: 'user_token' }), request: authored, fourEyes: true }),
      ).toMatchObject({
        ok: false,
        reason: 'author_cannot_approve',
      });
    });

    it('another approver can', () => {
      expect(canDecide({ decider: human({ userId: 'frank' }), request: authored, fourEyes: true })).toEqual({
        ok: true,
        deciderUserId: 'frank',
      });
    });

    it('the author can approve when four-eyes is off', () => {
      expect(canDecide({ decider: human(), request: authored, fourEyes: false }).ok).toBe(true);
    });

    it('the author may still deny (withdrawing a change widens nothing)', () => {
      expect(canDecide({ decider: human(), request: { ...authored, verb: 'deny' }, fourEyes: true }).ok).toBe(
        true,
      );
    });
  });

  describe('compare-and-swap', () => {
    it('refuses a decision on a definition changed after review', () => {
      expect(
        canDecide({
          decider: human(),
          request: request({ currentFingerprint: 'fp:v1:bbbb' }),
          fourEyes: false,
        }),
      ).toEqual({ ok: false, reason: 'changed_since_review', changed: ['fingerprint'] });
    });

    it('refuses a decision whose security identity changed after review', () => {
      expect(
        canDecide({
          decider: human(),
          request: request({ currentIdentity: 'sid:v1:2222' }),
          fourEyes: false,
        }),
      ).toEqual({ ok: false, reason: 'changed_since_review', changed: ['identity'] });
    });

    it('refuses a denial of something other than what was reviewed too', () => {
      expect(
        canDecide({
          decider: human(),
          request: request({ verb: 'deny', currentFingerprint: 'x' }),
          fourEyes: false,
        }),
      ).toMatchObject({ ok: false, reason: 'changed_since_review' });
    });
  });
});
