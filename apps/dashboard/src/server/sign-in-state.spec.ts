import type { OAuthCredentialView } from '../views/catalog-views';
import type { EffectiveEntryView } from '../views/definition-views';
import { declaresOAuth, needsSignIn, serverSignIn, signInLabel } from './sign-in-state';

const WORKSPACE = '11111111-1111-4111-8111-111111111111';
const OTHER_WORKSPACE = '22222222-2222-4222-8222-222222222222';

function entry(oauth: boolean, key = 'http:https://docs.acme.test/mcp'): EffectiveEntryView {
  // Only the parts the function reads; the rest of an effective entry does not bear on sign-in.
  return {
    name: 'docs',
    identity: { key, display: key, transport: 'http', source: { tier: 'project', origin: 'project:x' } },
    projection: {
      transport: {
        kind: 'http',
        url: 'https://docs.acme.test/mcp',
        headers: { keys: [] },
        headersHelper: null,
        oauth: oauth ? { clientId: null, scopes: [], allowSharedCredential: true } : null,
        principalHeader: null,
      },
      requiresTrustedWorkspace: false,
      options: {},
    },
  } as unknown as EffectiveEntryView;
}

function credential(overrides: Partial<OAuthCredentialView>): OAuthCredentialView {
  return {
    id: '33333333-3333-4333-8333-333333333333',
    workspaceId: null,
    subject: 'user',
    state: 'signed_in',
    issuer: 'https://id.acme.test',
    resource: 'https://docs.acme.test/mcp',
    securityIdentity: 'http:https://docs.acme.test/mcp',
    accessTokenExpiresAt: null,
    updatedAt: '2026-12-01T10:00:00.000Z',
    ...overrides,
  };
}

describe('serverSignIn', () => {
  it('is null for a server that does not declare OAuth', () => {
    expect(declaresOAuth(entry(false))).toBe(false);
    expect(serverSignIn(entry(false), WORKSPACE, [credential({})])).toBeNull();
  });

  it('says signed out (and needing sign-in) when no credential matches the identity', () => {
    const signIn = serverSignIn(entry(true), WORKSPACE, [credential({ securityIdentity: 'http:other' })]);
    expect(signIn).toEqual({ state: 'signed_out', own: null, workspace: null });
    expect(needsSignIn(signIn)).toBe(true);
  });

  it("uses the person's own credential first, then the workspace's service credential", () => {
    const own = credential({ state: 'needs_sign_in' });
    const shared = credential({
      id: '44444444-4444-4444-8444-444444444444',
      subject: 'workspace',
      workspaceId: WORKSPACE,
    });
    const signIn = serverSignIn(entry(true), WORKSPACE, [own, shared]);
    expect(signIn?.state).toBe('signed_in');
    expect(signIn?.own).toBe(own);
    expect(signIn?.workspace).toBe(shared);
    expect(needsSignIn(signIn)).toBe(false);
  });

  it("never counts another workspace's service credential", () => {
    const shared = credential({ subject: 'workspace', workspaceId: OTHER_WORKSPACE });
    expect(serverSignIn(entry(true), WORKSPACE, [shared])?.state).toBe('signed_out');
  });

  it('keeps the fixed word of a credential that is not signed in', () => {
    expect(serverSignIn(entry(true), WORKSPACE, [credential({ state: 'refused' })])?.state).toBe('refused');
  });
});

describe('signInLabel', () => {
  const shared = credential({
    id: '44444444-4444-4444-8444-444444444444',
    subject: 'workspace',
    workspaceId: WORKSPACE,
  });

  it("says the workspace's credential serves a server the person has no sign-in of their own for", () => {
    const signIn = serverSignIn(entry(true), WORKSPACE, [shared]);
    expect(signIn && signInLabel(signIn)).toBe('Signed in (workspace credential)');
    expect(needsSignIn(signIn)).toBe(false);
  });

  it("says so too when the person's own sign-in is not signed in", () => {
    const signIn = serverSignIn(entry(true), WORKSPACE, [credential({ state: 'refused' }), shared]);
    expect(signIn && signInLabel(signIn)).toBe('Signed in (workspace credential)');
  });

  it("is the plain word when the person's own sign-in serves it, or nothing does", () => {
    const own = serverSignIn(entry(true), WORKSPACE, [credential({}), shared]);
    expect(own && signInLabel(own)).toBe('Signed in');
    const none = serverSignIn(entry(true), WORKSPACE, []);
    expect(none && signInLabel(none)).toBe('Signed out');
  });
});
