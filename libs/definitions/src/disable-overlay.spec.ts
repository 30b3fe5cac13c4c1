import { checkDisableOverlay, disableReasons, overlayApplies, type DisableOverlay } from './disable-overlay';

const ws = (serverName: string): DisableOverlay => ({ serverName, scope: { kind: 'workspace' } });
const user = (serverName: string, userId: string): DisableOverlay => ({
  serverName,
  scope: { kind: 'user', userId },
});

describe('disable overlays', () => {
  it("apply per view: workspace overlays everywhere, a user overlay only in that user's view", () => {
    expect(overlayApplies(ws('a'), { kind: 'workspace' })).toBe(true);
    expect(overlayApplies(ws('a'), { kind: 'principal', userId: 'u1' })).toBe(true);
    expect(overlayApplies(user('a', 'u1'), { kind: 'principal', userId: 'u1' })).toBe(true);
    expect(overlayApplies(user('a', 'u1'), { kind: 'principal', userId: 'u2' })).toBe(false);
    expect(overlayApplies(user('a', 'u1'), { kind: 'workspace' })).toBe(false);
  });

  it('name the workspace as the reason when both disable a server', () => {
    expect(disableReasons([user('a', 'u1'), ws('a'), user('b', 'u1')])).toEqual(
      new Map([
        ['a', 'disabled_by_workspace'],
        ['b', 'disabled_by_user'],
      ]),
    );
  });

  it('refuse an overlay naming an unknown server', () => {
    expect(checkDisableOverlay(ws('a'), new Set(['a']))).toEqual({ ok: true });
    expect(checkDisableOverlay(ws('zzz'), new Set(['a']))).toEqual({ ok: false, reason: 'unknown_server' });
  });
});
