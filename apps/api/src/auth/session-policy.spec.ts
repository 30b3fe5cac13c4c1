import { absoluteDeadline, extendedDeadline, slidingDeadline } from './session-policy';

describe('session deadlines', () => {
  const policy = { idleTimeoutMs: 30 * 60_000, absoluteTimeoutMs: 8 * 3_600_000 };
  const signIn = new Date('2026-01-01T08:00:00Z');
  const at = (minutes: number) => new Date(signIn.getTime() + minutes * 60_000);

  it('starts at the idle timeout and never passes the absolute one', () => {
    expect(slidingDeadline(signIn, signIn, policy)).toEqual(at(30));
    expect(slidingDeadline(signIn, at(470), policy)).toEqual(absoluteDeadline(signIn, policy));
  });

  it('moves the deadline on activity, at most once a minute', () => {
    expect(extendedDeadline(signIn, at(30), at(0.5), policy)).toBeNull();
    expect(extendedDeadline(signIn, at(30), at(5), policy)).toEqual(at(35));
    expect(extendedDeadline(signIn, at(480), at(479), policy)).toBeNull();
  });
});
