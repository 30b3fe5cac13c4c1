import { foldToolAxes } from './tool-axes-fold';

describe('foldToolAxes', () => {
  it('is write and egress where nothing trusted says otherwise, whatever the server hints', () => {
    const hints = { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false };
    for (const h of [undefined, hints]) {
      expect(foldToolAxes(undefined, h)).toEqual({
        axes: { effect: 'write', egress: true },
        from: { effect: 'default', egress: 'default', irreversibility: 'absent' },
        contradiction: false,
      });
    }
  });

  it('lets a server hint only tighten: destructiveHint marks the tool irreversible', () => {
    expect(foldToolAxes(undefined, { destructiveHint: true })).toEqual({
      axes: { effect: 'write', egress: true, irreversibility: 'always' },
      from: { effect: 'default', egress: 'default', irreversibility: 'server_hint' },
      contradiction: false,
    });
  });

  it('takes the caller as authoritative both ways', () => {
    expect(
      foldToolAxes({ effect: 'read', egress: false, irreversibility: 'never' }, { destructiveHint: true }),
    ).toEqual({
      axes: { effect: 'read', egress: false, irreversibility: 'never' },
      from: { effect: 'caller', egress: 'caller', irreversibility: 'caller' },
      contradiction: false,
    });
    expect(foldToolAxes({ egress: false }, undefined).axes).toEqual({ effect: 'write', egress: false });
  });

  it('keeps the fail-closed axes when a lowered effect keeps egress (said or defaulted)', () => {
    for (const caller of [{ effect: 'read' as const }, { effect: 'idempotent' as const, egress: true }]) {
      expect(foldToolAxes(caller, undefined)).toEqual({
        axes: { effect: 'write', egress: true },
        from: { effect: 'default', egress: 'default', irreversibility: 'absent' },
        contradiction: true,
      });
    }
  });
});
