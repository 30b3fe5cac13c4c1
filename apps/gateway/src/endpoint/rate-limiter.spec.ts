import { RateLimiter } from './rate-limiter.js';

describe('RateLimiter', () => {
  it('admits up to the limit per key and window, then says when the window turns', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 2, windowMs: 60_000, now: () => now });
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('b')).toEqual({ ok: true });
    now = 15_500;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 45 });
    now = 60_000;
    expect(limiter.take('a')).toEqual({ ok: true });
  });

  it('never answers a Retry-After under one second', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 1, windowMs: 1_000, now: () => now });
    limiter.take('a');
    now = 999.9;
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('forgets the oldest key when full (that key starts a fresh window)', () => {
    const limiter = new RateLimiter({ limit: 1, maxKeys: 2, now: () => 0 });
    limiter.take('a');
    limiter.take('b');
    limiter.take('c');
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('c')).toMatchObject({ ok: false });
  });
});
