import type { ActivationView, ApprovalView } from '@/views/approval-views';
import {
  activationReasonLabel,
  admissionReasonLabel,
  askForReviewLabel,
  causeLabel,
  changePath,
  decisionStateOf,
  describeChange,
  describeStaleFields,
  formatDiffValue,
  mayAskForReview,
  notAdmissibleLine,
  personLabel,
  targetOfProjection,
  triggerLabel,
  valueChangeOf,
} from './approval-labels';

const USER = '0d9f3c2e-5b7a-4c1d-9e8f-123456789abc';

function activation(overrides: Partial<ActivationView>): ActivationView {
  return {
    state: 'pending',
    reasons: ['no_admission_decision'],
    approvalId: null,
    expiresAt: null,
    staleBecause: [],
    openRequestId: null,
    ...overrides,
  };
}

function approval(overrides: Partial<ApprovalView>): ApprovalView {
  return {
    id: '6a1f3c2e-5b7a-4c1d-9e8f-123456789abc',
    workspaceId: '7b1f3c2e-5b7a-4c1d-9e8f-123456789abc',
    requestId: null,
    identity: {
      key: `aid:v1:${'a'.repeat(64)}`,
      serverName: 'docs',
      source: { tier: 'project', origin: 'project:w' },
      definitionFingerprint: 'sha256:abc',
      securityIdentity: 'sid:v1:abc',
      principalUserId: null,
      repositoryIdentity: 'github.com/acme/platform',
      workspaceGeneration: 2,
    },
    decision: 'approved',
    decidedBy: USER,
    decidedAt: '2026-05-01T00:00:00Z',
    expiresAt: null,
    revokedAt: null,
    revokedBy: null,
    ...overrides,
  };
}

describe('formatDiffValue', () => {
  it('quotes strings, so empty and look-alike values read as what they are', () => {
    expect(formatDiffValue('https://docs.acme.test/mcp')).toBe('"https://docs.acme.test/mcp"');
    expect(formatDiffValue('')).toBe('""');
    expect(formatDiffValue('null')).toBe('"null"');
    expect(formatDiffValue('say "hi"')).toBe('"say \\"hi\\""');
  });

  it('writes scalars bare and an absent side as "absent"', () => {
    expect(formatDiffValue(null)).toBe('null');
    expect(formatDiffValue(3)).toBe('3');
    expect(formatDiffValue(true)).toBe('true');
    expect(formatDiffValue(undefined)).toBe('absent');
  });

  it('writes lists and objects as compact JSON with spaces, skipping undefined members', () => {
    expect(formatDiffValue(['-y', '@acme/deploy-mcp', '--region', 'eu-west-1'])).toBe(
      '["-y", "@acme/deploy-mcp", "--region", "eu-west-1"]',
    );
    expect(formatDiffValue({ state: 'redacted', keys: ['API_KEY'], gone: undefined })).toBe(
      '{ "state": "redacted", "keys": ["API_KEY"] }',
    );
    expect(formatDiffValue({})).toBe('{}');
    expect(formatDiffValue([])).toBe('[]');
  });

  it('keeps a masked value exactly as the API sent it', () => {
    expect(formatDiffValue('Bearer [REDACTED]')).toBe('"Bearer [REDACTED]"');
  });

  it('shortens a very long value and a very deep one', () => {
    const long = formatDiffValue('x'.repeat(1000));
    expect(long).toHaveLength(400);
    expect(long.endsWith('…')).toBe(true);
    expect(formatDiffValue({ a: { b: { c: { d: { e: { f: { g: 1 } } } } } } })).toContain('…');
  });
});

describe('change descriptions', () => {
  it('joins a path and names the root', () => {
    expect(changePath(['transport', 'url'])).toBe('transport.url');
    expect(changePath([])).toBe('(the whole definition)');
  });

  it('words each kind of change', () => {
    expect(describeChange({ kind: 'changed', path: ['transport', 'url'], before: 'a', after: 'b' })).toBe(
      'transport.url changed from "a" to "b"',
    );
    expect(describeChange({ kind: 'added', path: ['transport', 'cwd'], after: '/srv' })).toBe(
      'transport.cwd added: "/srv"',
    );
    expect(describeChange({ kind: 'removed', path: ['options'], before: { x: 1 } })).toBe(
      'options removed (was { "x": 1 })',
    );
  });
});

describe('value changes (an env or header key whose value changed, never the value)', () => {
  it('recognises one and words it without a value', () => {
    const change = { kind: 'changed' as const, path: ['transport', 'env', 'values', 'NODE_OPTIONS'] };
    expect(valueChangeOf(change)).toEqual({ section: 'env', key: 'NODE_OPTIONS' });
    expect(changePath(change.path)).toBe('env NODE_OPTIONS (value)');
    expect(describeChange(change)).toBe('The value of env NODE_OPTIONS changed (values are never shown)');
    expect(describeChange({ kind: 'added', path: ['transport', 'headers', 'values', 'X-Team'] })).toBe(
      'Header X-Team was added (values are never shown)',
    );
    expect(describeChange({ kind: 'removed', path: ['transport', 'env', 'values', 'OLD'] })).toBe(
      'Env OLD was removed (values are never shown)',
    );
  });

  it('is not fooled by a projection field or a change that carries values', () => {
    expect(
      valueChangeOf({ kind: 'changed', path: ['transport', 'env', 'keys'], before: [], after: ['A'] }),
    ).toBeNull();
    expect(
      valueChangeOf({ kind: 'changed', path: ['transport', 'env', 'values', 'A'], before: 'x', after: 'y' }),
    ).toBeNull();
    expect(valueChangeOf({ kind: 'changed', path: ['options', 'env', 'values', 'A'] })).toBeNull();
  });
});

describe('activation words', () => {
  it('words known reasons and keeps unknown ones readable', () => {
    expect(activationReasonLabel('no_admission_decision')).toBe('Nobody has approved or denied it yet');
    expect(activationReasonLabel('brand_new_reason')).toBe('brand new reason');
    expect(triggerLabel('source_written')).toBe('A source was written');
    expect(triggerLabel('new_trigger')).toBe('new trigger');
  });

  it('lists what changed since the approval in a sentence', () => {
    expect(describeStaleFields(['fingerprint'])).toBe('the definition');
    expect(describeStaleFields(['fingerprint_scheme'])).toContain('fingerprinted');
    expect(describeStaleFields(['fingerprint', 'generation'])).toBe(
      'the definition and the workspace generation',
    );
    expect(describeStaleFields(['source', 'fingerprint', 'identity'])).toBe(
      'the winning source, the definition and what it runs or connects to',
    );
    expect(describeStaleFields([])).toBe('its identity');
  });

  it('names a person from the directory, or by the start of their id', () => {
    expect(personLabel(USER, { [USER]: 'Ada Approver' })).toBe('Ada Approver');
    expect(personLabel(USER, {})).toBe('user 0d9f3c2e');
  });
});

describe('mayAskForReview', () => {
  it('offers review for an undecided, expired, denied, revoked or stale entry with nothing open', () => {
    expect(mayAskForReview(activation({}), true)).toBe(true);
    expect(mayAskForReview(activation({ reasons: ['approval_expired'] }), true)).toBe(true);
    for (const state of ['denied', 'revoked', 'stale'] as const) {
      expect(mayAskForReview(activation({ state, reasons: [] }), true)).toBe(true);
    }
  });

  it('does not offer it while a request is open, when approved or untrusted, or with nothing exact to approve', () => {
    expect(mayAskForReview(activation({ openRequestId: '1b1f3c2e-5b7a-4c1d-9e8f-123456789abc' }), true)).toBe(
      false,
    );
    expect(mayAskForReview(activation({ state: 'approved', reasons: ['approval_matches'] }), true)).toBe(
      false,
    );
    expect(
      mayAskForReview(activation({ state: 'untrusted', reasons: ['untrusted_workspace_source'] }), true),
    ).toBe(false);
    expect(mayAskForReview(activation({ reasons: ['entry_unusable'] }), true)).toBe(false);
    expect(mayAskForReview(activation({ reasons: ['principal_required'] }), true)).toBe(false);
    expect(mayAskForReview(activation({}), false)).toBe(false);
  });
});

describe('decisionStateOf', () => {
  const now = new Date('2026-06-01T00:00:00Z');

  it('puts revoked first, then an expiry in the past, else in force', () => {
    expect(decisionStateOf(approval({}), now).label).toBe('In force');
    expect(decisionStateOf(approval({ expiresAt: '2026-05-31T00:00:00Z' }), now).label).toBe('Expired');
    expect(decisionStateOf(approval({ expiresAt: '2026-06-02T00:00:00Z' }), now).label).toBe('In force');
    expect(decisionStateOf(approval({ decision: 'denied' }), now).label).toBe('In force');
    expect(
      decisionStateOf(approval({ expiresAt: '2026-05-31T00:00:00Z', revokedAt: '2026-05-02T00:00:00Z' }), now)
        .label,
    ).toBe('Revoked');
  });
});

describe('targetOfProjection', () => {
  it('reads the command line of a stdio projection and the URL of an http one', () => {
    expect(
      targetOfProjection({
        transport: { kind: 'stdio', command: 'npx', args: ['-y'], commandLine: 'npx -y' },
      }),
    ).toEqual({ kind: 'stdio', target: 'npx -y' });
    expect(targetOfProjection({ transport: { kind: 'http', url: 'https://docs.acme.test/mcp' } })).toEqual({
      kind: 'http',
      target: 'https://docs.acme.test/mcp',
    });
  });

  it('gives null for any other shape', () => {
    expect(targetOfProjection({})).toBeNull();
    expect(targetOfProjection({ transport: 'stdio' })).toBeNull();
    expect(targetOfProjection({ transport: { kind: 'ws', url: 'wss://x' } })).toBeNull();
    expect(targetOfProjection({ transport: { kind: 'http', url: 3 } })).toBeNull();
  });
});

describe('statuses that agree and requests that say why (docs/architecture/approvals.md)', () => {
  it('names the cause of a request instead of a first review', () => {
    expect(causeLabel({ kind: 'variable_set', subject: 'GITHUB_TOKEN', scope: 'user' })).toBe(
      'Personal variable GITHUB_TOKEN set',
    );
    expect(causeLabel({ kind: 'variable_unset', subject: 'REPO_DIR', scope: 'workspace' })).toBe(
      'Workspace variable REPO_DIR unset',
    );
    expect(causeLabel({ kind: 'overlay_cleared', subject: 'github', scope: null })).toBe(
      'github enabled again',
    );
    expect(causeLabel(null)).toBeNull();
  });

  it('says why an approved server is not admissible, in words', () => {
    expect(notAdmissibleLine(['stdio_not_allowed_on_pool', 'destination_refused'])).toBe(
      'Approved but not admissible: the pool does not run local (stdio) servers; its URL is refused (a private, metadata or unreachable destination)',
    );
    expect(admissionReasonLabel('some_new_code')).toBe('some new code');
    expect(admissionReasonLabel('env_key_not_allowed')).toBe(
      'it sets an environment variable the pool’s allowlist does not name',
    );
  });

  it('names what asking does after a denial or a revocation', () => {
    expect(askForReviewLabel(activation({ state: 'denied' }))).toBe('Ask approvers to reconsider the denial');
    expect(askForReviewLabel(activation({ state: 'revoked' }))).toBe('Ask approvers to approve it again');
    expect(askForReviewLabel(activation({ state: 'pending' }))).toBe('Ask for review');
  });
});
