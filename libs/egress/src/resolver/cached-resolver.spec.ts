import type { ResolveResult, Resolver } from './resolver.port';
import { createCachedResolver } from './cached-resolver';

/** Answers from a script (the last entry repeats) and counts the questions. */
function scripted(script: readonly unknown[]): Resolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolve(hostname) {
      asked.push(hostname);
      return Promise.resolve(script[Math.min(asked.length, script.length) - 1] as ResolveResult);
    },
  };
}

const answer = (...addresses: string[]): ResolveResult => ({ ok: true, addresses });

describe('createCachedResolver', () => {
  it('answers from memory within the TTL and asks again after it', async () => {
    let clock = 1_000;
    const inner = scripted([answer('192.0.2.1'), answer('192.0.2.2')]);
    const cached = createCachedResolver(inner, { ttlMs: 500, maxNames: 8, now: () => clock });
    expect(await cached.resolve('a.example')).toEqual(answer('192.0.2.1'));
    clock += 499;
    expect(await cached.resolve('a.example')).toEqual(answer('192.0.2.1'));
    expect(inner.asked).toHaveLength(1);
    clock += 1;
    expect(await cached.resolve('a.example')).toEqual(answer('192.0.2.2'));
    expect(inner.asked).toHaveLength(2);
  });

  it('never remembers a failure or a malformed answer', async () => {
    const inner = scripted([
      { ok: false, reason: 'unresolvable' },
      { ok: true, addresses: [42] },
      { ok: true, addresses: [] },
      answer('192.0.2.1'),
    ]);
    const cached = createCachedResolver(inner, { ttlMs: 60_000, maxNames: 8, now: () => 0 });
    expect(await cached.resolve('a.example')).toEqual({ ok: false, reason: 'unresolvable' });
    expect(await cached.resolve('a.example')).toEqual({ ok: true, addresses: [42] });
    expect(await cached.resolve('a.example')).toEqual({ ok: true, addresses: [] });
    expect(await cached.resolve('a.example')).toEqual(answer('192.0.2.1'));
    expect(await cached.resolve('a.example')).toEqual(answer('192.0.2.1'));
    expect(inner.asked).toHaveLength(4);
  });

  it('keeps a copy the resolver cannot change afterwards', async () => {
    const addresses = ['192.0.2.1'];
    const inner: Resolver = { resolve: () => Promise.resolve({ ok: true, addresses }) };
    const cached = createCachedResolver(inner, { ttlMs: 60_000, maxNames: 8, now: () => 0 });
    await cached.resolve('a.example');
    addresses[0] = '10.0.0.1';
    expect(await cached.resolve('a.example')).toEqual(answer('192.0.2.1'));
  });

  it('with a TTL of 0 asks every time', async () => {
    const inner = scripted([answer('192.0.2.1')]);
    const cached = createCachedResolver(inner, { ttlMs: 0, maxNames: 8 });
    await cached.resolve('a.example');
    await cached.resolve('a.example');
    expect(inner.asked).toHaveLength(2);
  });

  it('remembers at most maxNames names, dropping the oldest', async () => {
    const inner = scripted([answer('192.0.2.1')]);
    const cached = createCachedResolver(inner, { ttlMs: 60_000, maxNames: 2, now: () => 0 });
    for (const name of ['a.example', 'b.example', 'c.example', 'b.example', 'c.example']) {
      await cached.resolve(name);
    }
    expect(inner.asked).toEqual(['a.example', 'b.example', 'c.example']);
    await cached.resolve('a.example');
    expect(inner.asked).toHaveLength(4);
  });

  it.each([[{ ttlMs: -1, maxNames: 1 }], [{ ttlMs: 1.5, maxNames: 1 }], [{ ttlMs: 1, maxNames: 0 }]])(
    'refuses %j as a configuration bug',
    (options) => {
      expect(() => createCachedResolver(scripted([]), options)).toThrow(/must be/);
    },
  );
});
