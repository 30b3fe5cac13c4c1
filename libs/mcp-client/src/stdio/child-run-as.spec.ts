import { childRunAs } from './child-run-as';

const nobody = { uid: 65534, gid: 65534 };
const pool = { uid: 1000, gid: 1000 };

describe('childRunAs', () => {
  it('a root process runs a child as the pool’s runAs, else as the unprivileged account', () => {
    expect(childRunAs(pool, { canSwitchUser: true, unprivilegedUser: nobody })).toEqual({
      ok: true,
      runAs: pool,
    });
    expect(childRunAs(null, { canSwitchUser: true, unprivilegedUser: nobody })).toEqual({
      ok: true,
      runAs: nobody,
    });
  });

  it('a root process with neither refuses the child rather than run it as root', () => {
    expect(childRunAs(null, { canSwitchUser: true })).toEqual({ ok: false, reason: 'run_as_required' });
    expect(childRunAs(null, { canSwitchUser: true, unprivilegedUser: null })).toEqual({
      ok: false,
      reason: 'run_as_required',
    });
  });

  it('never switches to uid or gid 0, even when a pool names it', () => {
    expect(childRunAs({ uid: 0, gid: 0 }, { canSwitchUser: true })).toEqual({
      ok: false,
      reason: 'run_as_required',
    });
    expect(childRunAs({ uid: 5, gid: 0 }, { canSwitchUser: true, unprivilegedUser: nobody })).toEqual({
      ok: false,
      reason: 'run_as_required',
    });
  });

  it('in production a process that cannot switch runs no child: it would share the process’s account', () => {
    expect(childRunAs(pool, { canSwitchUser: false, requireSeparateAccount: true })).toEqual({
      ok: false,
      reason: 'run_as_required',
    });
    expect(childRunAs(null, { canSwitchUser: false, requireSeparateAccount: true })).toEqual({
      ok: false,
      reason: 'run_as_required',
    });
    expect(childRunAs(pool, { canSwitchUser: true, requireSeparateAccount: true })).toEqual({
      ok: true,
      runAs: pool,
    });
  });

  it('elsewhere a process that cannot switch runs its children as itself', () => {
    expect(childRunAs(pool, { canSwitchUser: false })).toEqual({ ok: true, runAs: null });
    expect(childRunAs(null, { canSwitchUser: false })).toEqual({ ok: true, runAs: null });
  });
});
