import { recordingResolver } from '../test-support/recording-resolver';
import type { EgressPolicy } from '../policy/egress-policy';
import { EgressError } from './egress-error';
import { createPinnedFetch } from './pinned-fetch';

const policy: EgressPolicy = {
  allowInsecureLoopback: false,
  operatorDenylist: { cidrs: [], hostnames: [] },
  operatorAllowedPrivateRanges: [],
  tenantOptedInPrivateRanges: [],
};

describe('createPinnedFetch (no connection made)', () => {
  it.each([
    [0, 1024],
    [-1, 1024],
    [1.5, 1024],
    [1000, 0],
    [1000, Number.POSITIVE_INFINITY],
  ])('refuses timeoutMs %s / maxResponseBytes %s as a configuration bug', (timeoutMs, maxResponseBytes) => {
    expect(() =>
      createPinnedFetch({ policy, resolver: recordingResolver({}), timeoutMs, maxResponseBytes }),
    ).toThrow(/must be a positive integer/);
  });

  it.each([
    [{ idleTimeoutMs: 0 }, /idleTimeoutMs must be a positive integer/],
    [{ idleTimeoutMs: 2 ** 31 }, /idleTimeoutMs must be at most/],
    [{ maxEventBytes: 0 }, /maxEventBytes must be a positive integer/],
    [{ admissionTtlMs: -1 }, /admissionTtlMs must be a non-negative integer/],
    [{ admissionTtlMs: 300_001 }, /admissionTtlMs must be at most 300000/],
    [{ connectionsPerOrigin: 0 }, /connectionsPerOrigin must be a positive integer/],
    [{ maxOrigins: 1.5 }, /maxOrigins must be a positive integer/],
  ])('refuses %j as a configuration bug', (overrides, message) => {
    expect(() =>
      createPinnedFetch({
        policy,
        resolver: recordingResolver({}),
        timeoutMs: 1000,
        maxResponseBytes: 1,
        ...overrides,
      }),
    ).toThrow(message);
  });

  it('refuses a timeoutMs no timer can wait (it is also the admission deadline)', () => {
    expect(() =>
      createPinnedFetch({ policy, resolver: recordingResolver({}), timeoutMs: 2 ** 31, maxResponseBytes: 1 }),
    ).toThrow(/timeoutMs must be at most/);
  });

  it.each([
    ['http://api.example/mcp?token=hunter2', 'insecure_scheme', 'http://api.example:80'],
    [
      'https://metadata.google.internal/computeMetadata/v1/',
      'metadata_destination',
      'https://metadata.google.internal:443',
    ],
    ['https://10.0.0.1/secret-path', 'private_destination', 'https://10.0.0.1:443'],
    ['ftp://files.example/x', 'unsupported_scheme', 'ftp://files.example'],
    ['https://nowhere.example/', 'unresolvable', 'https://nowhere.example:443'],
    ['https://api.example:0/mcp', 'invalid_port', 'https://api.example:0'],
  ])('throws a typed EgressError for %s before any connection', async (url, reason, origin) => {
    const fetch = createPinnedFetch({
      policy,
      resolver: recordingResolver({}),
      timeoutMs: 1000,
      maxResponseBytes: 1024,
    });
    const error: unknown = await fetch(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressError);
    expect(error).toMatchObject({ reason, origin, message: `egress ${reason}: ${origin}` });
  });

  it('treats a resolver that does not answer in time as unresolvable', async () => {
    const silent = { resolve: () => new Promise<never>(() => undefined) };
    const fetch = createPinnedFetch({ policy, resolver: silent, timeoutMs: 20, maxResponseBytes: 1024 });
    await expect(fetch('https://slow-dns.example/')).rejects.toMatchObject({ reason: 'unresolvable' });
  });

  it('does nothing for a caller that already aborted', async () => {
    const resolver = recordingResolver({});
    const fetch = createPinnedFetch({ policy, resolver, timeoutMs: 1000, maxResponseBytes: 1024 });
    const controller = new AbortController();
    controller.abort();
    await expect(fetch('https://api.example/', { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(resolver.asked).toEqual([]);
  });
});
