import type { ResolveResult, Resolver } from '../resolver/resolver.port';
import { MAX_RESOLVED_ADDRESSES } from './bounded-resolution';
import type { AdmissionResult, EgressPolicy } from './egress-policy';
import { admitUrl, DEFAULT_ADMISSION_DEADLINE_MS } from './url-admission.policy';

// Whatever a resolver does (throws, rejects, answers nonsense, never answers), admission
// answers with a typed refusal, never the resolver's own error, and never stays pending past its deadline.

const PUBLIC_V4 = '93.184.216.34';
const URL_UNDER_TEST = 'https://api.example/mcp?token=hunter2';
const UNRESOLVABLE: AdmissionResult = {
  ok: false,
  reason: 'unresolvable',
  origin: 'https://api.example:443',
};

const strict: EgressPolicy = {
  allowInsecureLoopback: false,
  operatorDenylist: { cidrs: [], hostnames: [] },
  operatorAllowedPrivateRanges: [],
  tenantOptedInPrivateRanges: [],
};

/** A resolver whose `resolve` does whatever `answer` does; the types are the hostile part. */
function resolverDoing(answer: () => unknown): Resolver {
  return { resolve: answer as () => Promise<ResolveResult> };
}

const SECRET_TEXT = 'resolver said 10.1.2.3 for api.example via dns.internal';

describe('admitUrl: a resolver that fails', () => {
  it.each<[string, () => unknown]>([
    [
      'throws an Error',
      () => {
        throw new Error(SECRET_TEXT);
      },
    ],
    [
      'throws a non-Error value',
      () => {
        throw SECRET_TEXT;
      },
    ],
    [
      'throws undefined',
      () => {
        throw undefined;
      },
    ],
    ['rejects with an Error', () => Promise.reject(new Error(SECRET_TEXT))],
    [
      'rejects with a DNS-shaped error',
      () => Promise.reject(Object.assign(new Error(SECRET_TEXT), { code: 'ECONNRESET', syscall: 'queryA' })),
    ],
    ['rejects with null', () => Promise.reject(null)],
    [
      'returns a thenable that throws',
      () => ({
        then: () => {
          throw new Error(SECRET_TEXT);
        },
      }),
    ],
  ])('is unresolvable when the resolver %s, and the error goes nowhere', async (_, answer) => {
    const result = await admitUrl(URL_UNDER_TEST, strict, resolverDoing(answer));
    expect(result).toEqual(UNRESOLVABLE);
    expect(JSON.stringify(result)).not.toContain('10.1.2.3');
  });
});

describe('admitUrl: a resolver that answers a malformed value', () => {
  const getterThatThrows = {
    ok: true,
    get addresses(): never {
      throw new Error(SECRET_TEXT);
    },
  };
  const arrayWithThrowingElement = [PUBLIC_V4];
  Object.defineProperty(arrayWithThrowingElement, 0, {
    get: () => {
      throw new Error(SECRET_TEXT);
    },
  });

  const sparse: string[] = new Array<string>(3);
  sparse[0] = PUBLIC_V4;
  sparse[2] = PUBLIC_V4;

  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['a string', PUBLIC_V4],
    ['an array of addresses', [PUBLIC_V4]],
    ['an empty object', {}],
    ['ok without addresses', { ok: true }],
    ['ok with addresses as a string', { ok: true, addresses: PUBLIC_V4 }],
    ['ok with addresses as an object', { ok: true, addresses: { 0: PUBLIC_V4, length: 1 } }],
    ['ok with a numeric address', { ok: true, addresses: [0x5db8d822] }],
    ['ok with a null address', { ok: true, addresses: [PUBLIC_V4, null] }],
    ['ok with an address object', { ok: true, addresses: [{ address: PUBLIC_V4, family: 4 }] }],
    ['ok with an empty address list', { ok: true, addresses: [] }],
    ['ok with a sparse address list', { ok: true, addresses: sparse }],
    ['ok as a truthy non-boolean', { ok: 'yes', addresses: [PUBLIC_V4] }],
    ['ok false with addresses', { ok: false, addresses: [PUBLIC_V4] }],
    ['a refusal with an unknown reason', { ok: false, reason: 'because' }],
    ['an addresses getter that throws', getterThatThrows],
    ['an address element that throws', { ok: true, addresses: arrayWithThrowingElement }],
  ])('is unresolvable when the answer is %s', async (_, value) => {
    const result = await admitUrl(
      URL_UNDER_TEST,
      strict,
      resolverDoing(() => Promise.resolve(value)),
    );
    expect(result).toEqual(UNRESOLVABLE);
  });

  it('still admits a well-formed answer, even one given without a promise', async () => {
    const answer = { ok: true, addresses: [PUBLIC_V4] };
    expect(
      await admitUrl(
        URL_UNDER_TEST,
        strict,
        resolverDoing(() => answer),
      ),
    ).toEqual({
      ok: true,
      origin: 'https://api.example:443',
      addresses: [PUBLIC_V4],
    });
  });

  it(`reads at most ${MAX_RESOLVED_ADDRESSES} addresses: a longer answer is refused, not checked one by one`, async () => {
    const answerOf = (count: number) => ({ ok: true, addresses: new Array<string>(count).fill(PUBLIC_V4) });
    const atCap = resolverDoing(() => Promise.resolve(answerOf(MAX_RESOLVED_ADDRESSES)));
    const overCap = resolverDoing(() => Promise.resolve(answerOf(MAX_RESOLVED_ADDRESSES + 1)));
    // An array (to Array.isArray) claiming four billion entries, every one a good address.
    const endless = new Proxy<string[]>([], {
      get: (target, key) => (key === 'length' ? 2 ** 32 - 1 : PUBLIC_V4),
    });
    const absurd = resolverDoing(() => Promise.resolve({ ok: true, addresses: endless }));
    expect(await admitUrl(URL_UNDER_TEST, strict, atCap)).toMatchObject({ ok: true, addresses: [PUBLIC_V4] });
    expect(await admitUrl(URL_UNDER_TEST, strict, overCap)).toEqual(UNRESOLVABLE);
    expect(await admitUrl(URL_UNDER_TEST, strict, absurd)).toEqual(UNRESOLVABLE);
  });

  it('refuses one hostile address among good ones: a resolver cannot smuggle one past the check', async () => {
    const answer = { ok: true, addresses: [PUBLIC_V4, '10.0.0.1'] };
    expect(
      await admitUrl(
        URL_UNDER_TEST,
        strict,
        resolverDoing(() => Promise.resolve(answer)),
      ),
    ).toMatchObject({
      ok: false,
      reason: 'private_destination',
    });
  });
});

describe('admitUrl: its deadline', () => {
  const silent = resolverDoing(() => new Promise<never>(() => undefined));
  const settledYet = (work: Promise<unknown>): Promise<boolean> => {
    let settled = false;
    void work.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Let every already-queued reaction run before reading the flag.
    return new Promise((resolve) => setImmediate(() => resolve(settled)));
  };

  afterEach(() => {
    jest.useRealTimers();
  });

  it('refuses a resolver that never answers as unresolvable once the default deadline passes', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const pending = admitUrl(URL_UNDER_TEST, strict, silent);
    await jest.advanceTimersByTimeAsync(DEFAULT_ADMISSION_DEADLINE_MS - 1);
    expect(await settledYet(pending)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual(UNRESOLVABLE);
  });

  it('takes its own deadline as an option', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const pending = admitUrl(URL_UNDER_TEST, strict, silent, { deadlineMs: 250 });
    await jest.advanceTimersByTimeAsync(249);
    expect(await settledYet(pending)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual(UNRESOLVABLE);
  });

  it('refuses a thenable that never calls back', async () => {
    const neverCalls = resolverDoing(() => ({ then: () => undefined }));
    expect(await admitUrl(URL_UNDER_TEST, strict, neverCalls, { deadlineMs: 20 })).toEqual(UNRESOLVABLE);
  });

  it('ignores an answer that arrives after the deadline, good or bad', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    let answer: (value: ResolveResult) => void = () => undefined;
    let fail: (error: Error) => void = () => undefined;
    const late = resolverDoing(() => new Promise((resolve) => (answer = resolve)));
    const lateFailure = resolverDoing(() => new Promise((_, reject) => (fail = reject)));

    const first = admitUrl(URL_UNDER_TEST, strict, late, { deadlineMs: 100 });
    const second = admitUrl(URL_UNDER_TEST, strict, lateFailure, { deadlineMs: 100 });
    await jest.advanceTimersByTimeAsync(100);
    answer({ ok: true, addresses: [PUBLIC_V4] });
    fail(new Error(SECRET_TEXT));
    expect(await first).toEqual(UNRESOLVABLE);
    expect(await second).toEqual(UNRESOLVABLE);
  });

  it('leaves no timer behind once the resolver has answered', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const quick = resolverDoing(() => Promise.resolve({ ok: true, addresses: [PUBLIC_V4] }));
    const failing = resolverDoing(() => Promise.reject(new Error(SECRET_TEXT)));
    expect(await admitUrl(URL_UNDER_TEST, strict, quick)).toMatchObject({ ok: true });
    expect(await admitUrl(URL_UNDER_TEST, strict, failing)).toEqual(UNRESOLVABLE);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('makes no lookup, and so has no deadline to wait for, for an IP literal', async () => {
    const result = await admitUrl(`https://${PUBLIC_V4}/`, strict, silent, { deadlineMs: 60_000 });
    expect(result).toEqual({ ok: true, origin: `https://${PUBLIC_V4}:443`, addresses: [PUBLIC_V4] });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])(
    'refuses a deadline of %s as a bug (not a positive integer within what a timer can wait)',
    async (deadlineMs) => {
      await expect(admitUrl(URL_UNDER_TEST, strict, silent, { deadlineMs })).rejects.toThrow(/deadlineMs/);
    },
  );
});
