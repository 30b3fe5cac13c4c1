import { assertAuditEventSafe } from './audit-event.guard';
import { auditSafeFields, auditSafeText, MAX_SHOWN_AUDIT_TEXT } from './audit-safe-text';

const MARKER = /^sha256:[0-9a-f]{16}$/;

function eventWith(data: Record<string, string | readonly string[]>) {
  return {
    actor: { type: 'user', id: 'u-1', tokenKind: null },
    action: 'approvals.requests.opened',
    target: { type: 'approval_request', id: 'r-1' },
    outcome: 'success',
    data,
  } as const;
}

describe('auditSafeText', () => {
  it.each([
    'options.toolAxes.search',
    'transport.url',
    'project:7b0c0f8e-6a51-4b0e-9d7c-1f2a3b4c5d6e',
    'https://git.example.com/acme/app',
    'ghu_AAAAAAAAAAAAAAA',
    'x'.repeat(MAX_SHOWN_AUDIT_TEXT),
  ])('keeps plain text as it is: %s', (text) => {
    expect(auditSafeText(text)).toBe(text);
  });

  it.each([
    ['a token-shaped tool name', 'options.toolAxes.ghu_AAAAAAAAAAAAAAAAAAAAAAAA'],
    ['another token prefix', 'managed:gha_0123456789abcdefXYZ'],
    ['a path longer than the guard takes', `options.toolAxes.${'t'.repeat(600)}.effect`],
    ['a NUL', 'options.toolAxes.a\u0000b'],
  ])('replaces %s by a sha256 marker the audit guard accepts', (_label, text) => {
    const safe = auditSafeText(text);
    expect(safe).toMatch(MARKER);
    // The guard throws on the original (which is what made the mutation a 500) and accepts the marker.
    expect(() => assertAuditEventSafe(eventWith({ changedPaths: [text] }))).toThrow();
    expect(() => assertAuditEventSafe(eventWith({ changedPaths: [safe] }))).not.toThrow();
  });

  it('replaces text one character longer than the limit, well below what the guard refuses', () => {
    expect(auditSafeText('x'.repeat(MAX_SHOWN_AUDIT_TEXT + 1))).toMatch(MARKER);
  });

  it('gives equal texts equal markers and different texts different ones (lone surrogates included)', () => {
    const long = 'y'.repeat(300);
    expect(auditSafeText(long)).toBe(auditSafeText(`${'y'.repeat(300)}`));
    expect(auditSafeText(long)).not.toBe(auditSafeText(`${long}z`));
    expect(auditSafeText(`${long}\ud800`)).not.toBe(auditSafeText(`${long}\ud801`));
  });
});

describe('auditSafeFields', () => {
  it('makes the string members safe and keeps the others', () => {
    expect(
      auditSafeFields({
        serverName: 'github',
        sourceOrigin: 'plugin:ghu_AAAAAAAAAAAAAAAAAAAAAAAA',
        repositoryIdentity: null,
        workspaceGeneration: 3,
      }),
    ).toEqual({
      serverName: 'github',
      sourceOrigin: expect.stringMatching(MARKER),
      repositoryIdentity: null,
      workspaceGeneration: 3,
    });
  });
});
